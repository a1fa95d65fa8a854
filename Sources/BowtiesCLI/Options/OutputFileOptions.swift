import ArgumentParser

/// `--force`, for every command that writes a file the user names (`photo`, `export`,
/// `report`, `backup`): one rule for all of them. An existing file is refused (exit 73)
/// unless `--force`; either way a file is written under a temporary name and renamed into
/// place, so it is never seen half-written (a terminal, a pipe or a device is written
/// through: ``AtomicFile/write(to:mode:replacing:_:)``).
struct OutputFileOptions: ParsableArguments {
  @Flag(help: "Replace the output file if it exists already (by default it is refused).")
  var force = false
}
