import ArgumentParser

/// `--image`, for `show`: whether to draw the tie's photo.
struct ImageOptions: ParsableArguments {
  enum Mode: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
  }

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Draw the tie's photo beside its details: auto (when stdout is a terminal that wants "
        + "color: not with NO_COLOR or TERM=dumb), always (in color even into a pipe or a "
        + "file, and even with NO_COLOR: the flag wins), or never.",
      valueName: "when"))
  var image: Mode = .auto

  /// Whether to draw: `auto` follows the same rule as color (a terminal, no `NO_COLOR`,
  /// not `TERM=dumb`); `always` overrides `NO_COLOR`, as no-color.org asks of a flag given
  /// on the command line.
  var drawsImage: Bool {
    switch image {
    case .always: true
    case .never: false
    case .auto: Terminal.usesColor
    }
  }
}
