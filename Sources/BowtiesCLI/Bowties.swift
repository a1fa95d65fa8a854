import ArgumentParser
import BowTieKit

/// The `bowties` command: a thin shell over BowTieKit. Each subcommand lives in its
/// own file under `Subcommands/`; errors become exit codes in `ExitStatus.swift`.
public struct Bowties: ParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "bowties",
    abstract: "Keep track of your bow ties: ratings, wears and favorites.",
    discussion: """
      The store is --store PATH, else $BOWTIES_STORE, else \
      $XDG_DATA_HOME/bowties/BowTies.sqlite (~/.local/share/bowties/BowTies.sqlite). \
      A command run on a store that does not exist yet creates it with the seven \
      sample ties.

      TIE is a search key (R, r), a name or a unique prefix of it (cafe finds \
      "Café Bow Tie"), or an id.

      \(ExitStatus.helpSection)
      """,
    version: bowtiesVersion,
    subcommands: [
      Seed.self, Show.self, List.self, Browse.self, Wear.self, Rate.self, Favorite.self,
      History.self,
      Undo.self, Suggest.self, Report.self, Add.self, Edit.self, Remove.self, Photo.self,
      Export.self, Doctor.self, Backup.self, Restore.self,
    ]
  )

  public init() {}

  /// Runs the command line the process was given, and exits with its status.
  public static func main() {
    // First, so that a command handed over costs this process as little as it can.
    let arguments = Array(CommandLine.arguments.dropFirst())
    PostgreSQLProgram.handOverIfNeeded(arguments)
    StandardOutput.reportClosedPipes()
    PostgreSQLProgram.registerMissing()
    // As the app does in its delegate: the transformer is registered before any store opens.
    ColorAttributeTransformer.register()
    do {
      try checkArgumentsAreUTF8()
      var command = try command(for: arguments)
      try command.run()
      try StoreOptions.closeOpenedStores()
    } catch {
      // A failed command's store is closed too, so no log file is left beside it; a
      // failure to close it is not the error to report.
      try? StoreOptions.closeOpenedStores()
      ExitStatus.exit(with: error)
    }
  }

  /// The command `arguments` (without the program name) ask for: the fast path's, or
  /// ArgumentParser's once the subcommand's name is known to be one.
  static func command(for arguments: [String]) throws -> any ParsableCommand {
    if let command = try FastPath.command(arguments) { return command }
    let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
    try CommandNames.check(arguments, names: names)
    return try parseAsRoot(arguments)
  }

  /// Refuses an argument that is not valid UTF-8: `CommandLine.arguments` repairs such
  /// bytes with U+FFFD, so `--store` would name another file, and a TIE another tie.
  static func checkArgumentsAreUTF8() throws(BowTieError) {
    for index in 1..<Int(CommandLine.argc) {
      guard let argument = CommandLine.unsafeArgv[index],
        String(validatingCString: argument) != nil
      else {
        throw .usage("argument \(index) is not valid UTF-8 text")
      }
    }
  }
}
