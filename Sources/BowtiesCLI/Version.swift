/// The version `bowties --version` prints, and the one place it is written: `make deb`
/// reads it from the binary for the package, and CHANGELOG.md names each one.
let bowtiesVersion = "0.1.0"
