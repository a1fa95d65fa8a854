// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets, in a package of their own so that the main package's build and
// tests never see the fuzzer runtime. `scripts/fuzz` builds everything with
// `--sanitize=address` and Swift's coverage instrumentation, and libFuzzer is linked into
// these executables only. (`--sanitize=fuzzer` would also link it into the
// EmbedResources build tool, and compile that tool's top-level code as a library.)
// Each target's main.swift hands its check to libFuzzer's driver.

/// lld, because gold resolves SwiftPM's `--defsym main=…` to garbage when libFuzzer's
/// runtime brings a main() too (the binary jumps into its ELF header).
func fuzzer(_ name: String, _ more: [Target.Dependency] = []) -> Target {
  .executableTarget(
    name: name,
    dependencies: [
      "FuzzSupport", .product(name: "BowTieKit", package: "bowties"),
      .product(name: "BowTieModel", package: "bowties"),
    ] + more,
    linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address", "-use-ld=lld"])]
  )
}

let package = Package(
  name: "bowties-fuzz",
  dependencies: [
    // Named, because a path dependency's identity is otherwise its folder's name.
    .package(name: "bowties", path: ".."),
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
  ],
  targets: [
    .systemLibrary(name: "CLibFuzzer"),
    .target(
      name: "FuzzSupport",
      dependencies: [
        "CLibFuzzer", .product(name: "BowTieKit", package: "bowties"),
        .product(name: "BowTieModel", package: "bowties"),
      ]
    ),
    fuzzer("FuzzColorArchive"),
    fuzzer("FuzzSeedFile"),
    fuzzer("FuzzTieResolver"),
    fuzzer("FuzzPhoto", [.product(name: "ImageCodecs", package: "bowties")]),
    fuzzer(
      "FuzzArguments",
      [
        .product(name: "BowtiesCLI", package: "bowties"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
  ]
)
