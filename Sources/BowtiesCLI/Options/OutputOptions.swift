import ArgumentParser

/// `--json`, for commands that print ties.
struct OutputOptions: ParsableArguments {
  @Flag(name: .long, help: "Print JSON for scripts instead of text for people.")
  var json = false
}
