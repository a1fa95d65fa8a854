import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation

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
    // Before anything opens a descriptor, which could take standard output's number.
    StandardOutput.reserveStandardDescriptors()
    // Before anything reads the time zone.
    LocalTimeZone.settle()
    // Then, so that a command handed over costs this process as little as it can; after
    // the engines' claims, so that its store is found as every command finds it.
    PostgreSQLProgram.registerMissing()
    let invocation = Invocation.current()
    let address = invocation.storeAddress()
    PostgreSQLProgram.handOverIfNeeded(invocation, address: address)
    StandardOutput.reportClosedPipes()
    // As the app does in its delegate: the transformer is registered before any store opens.
    ColorAttributeTransformer.register()
    // Kept until the process exits, with the stores it closed (CommandContext).
    let context = CommandContext(knowing: address.map { (invocation.explicitStore, $0) })
    do {
      try invocation.checkUTF8()
      if let command = try FastPath.command(invocation.arguments) {
        try context.run(command)
      } else {
        var command = try parse(invocation.arguments)
        if let command = command as? any BowtiesCommand {
          try context.run(command)
        } else {
          // The root command without a subcommand: its help.
          try command.run()
        }
      }
    } catch {
      ExitStatus.exit(with: error)
    }
    Foundation.exit(ExitStatus.success)
  }

  /// ArgumentParser names a missing argument before an unknown option (`wear -i`, `show
  /// --bogus`), though the option is what is wrong, and was often the argument meant.
  /// Asked again with a stand-in for the argument, it names the option; nil when it does
  /// not.
  private static func unknownOption(beforeMissingArgumentIn arguments: [String]) -> String? {
    guard !arguments.contains("--") else { return nil }
    do {
      _ = try parseAsRoot(arguments + ["--", "-"])
      return nil
    } catch {
      return CommandNames.unknownOption(arguments, message: message(for: error))
    }
  }

  /// The command `arguments` (without the program name) ask for, by ArgumentParser once
  /// the subcommand's name is known to be one.
  static func parse(_ arguments: [String]) throws -> any ParsableCommand {
    let commands = configuration.subcommands.compactMap { $0.configuration.commandName }
    try CommandNames.check(arguments, names: commands + ["help"])
    let command: any ParsableCommand
    do {
      command = try parseAsRoot(arguments)
    } catch {
      guard exitCode(for: error) == .validationFailure else { throw error }
      let message = message(for: error)
      if let hint = CommandNames.dashValueHint(arguments, message: message) {
        throw BowTieError.usage("\(message); \(hint)")
      }
      if message.hasPrefix("Missing expected argument '"),
        let unknown = unknownOption(beforeMissingArgumentIn: arguments)
      {
        throw BowTieError.usage(unknown)
      }
      // `bowties --store S show R`: git and docker take options there, ArgumentParser does not.
      guard let option = arguments.first,
        let line = CommandNames.commandFirst(arguments, names: commands)
      else { throw error }
      throw BowTieError.usage(
        "unknown option '\(option)' before the command; options go after the command's name: "
          + "bowties \(line)")
    }
    // Help, where the line may have meant a name (`wear -ish`) and would do nothing, exit 0.
    if !(command is any BowtiesCommand), arguments.first != "help",
      let refusal = CommandNames.helpInGroup(arguments)
    {
      throw BowTieError.usage(refusal)
    }
    return command
  }
}
