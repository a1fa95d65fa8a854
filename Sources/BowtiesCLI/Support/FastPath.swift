import ArgumentParser
import BowTieKit
import BowTieModel

/// The everyday command lines, turned into their commands without
/// ArgumentParser's start-up work.
///
/// ArgumentParser finds a command's arguments by reflecting on its properties, and on
/// every run it first tries the line as a completion-script request. Each of those
/// steps makes the Swift runtime scan every protocol conformance in the binary, which
/// for the everyday commands costs more than the rest of the command
/// (docs/performance.md, "FastPath").
///
/// This knows only `show TIE`, `wear TIE`, `rate TIE VALUE`, `favorite TIE` and `list`
/// (without filters), each with `--json` and `--store PATH` (or `--store=PATH`) anywhere.
/// It builds the very command value ArgumentParser would, with every property set, and
/// runs that command's own `validate()`; the command's `run()` does the rest, whichever
/// way it was parsed.
/// Anything else (help, `--`, `--date`, `--off`, a repeated or unknown option) gives nil,
/// and ArgumentParser parses the line with its own messages. `FastPathTests` checks, on
/// thousands of generated lines, that every command this builds is the one `parseAsRoot`
/// gives.
enum FastPath {
  /// The command for `arguments` (without the program name), or nil to let
  /// ArgumentParser parse them.
  ///
  /// - Throws: the ``BowTieError`` of a value its parser refused, which ArgumentParser
  ///   reports too (``ExitStatus/outcome(of:)``), or the `ExitCode` of a value the command's
  ///   `validate()` refused and reported, as `parseAsRoot` would throw it.
  static func command(_ arguments: [String]) throws -> (any BowtiesCommand)? {
    guard let name = arguments.first, let line = Line(arguments.dropFirst()) else {
      return nil
    }
    /// The command of type `C`, its store and output options set from the line; `rest`
    /// sets the others.
    func makeCommand<C: FastPathCommand>(_: C.Type, _ rest: (inout C) -> Void) -> C {
      var command = C()
      command.storeOptions = StoreOptions()
      command.storeOptions.store = line.store
      command.output = OutputOptions()
      command.output.json = line.json
      rest(&command)
      return command
    }
    /// The single-tie command of type `C`, its TIE set from the line too.
    func makeTieCommand<C: SingleTieCommand>(_ type: C.Type, _ rest: (inout C) -> Void) -> C {
      makeCommand(type) {
        $0.tie = line.positionals[0]
        rest(&$0)
      }
    }

    var command: any BowtiesCommand
    switch (name, line.positionals.count) {
    case ("show", 1):
      command = makeTieCommand(Bowties.Show.self) {
        $0.imageOptions = ImageOptions()
        $0.imageOptions.image = .auto
      }
    case ("wear", 1):
      command = makeTieCommand(Bowties.Wear.self) { $0.date = nil }
    case ("rate", 2):
      // Parsed as ArgumentParser parses it, and refused with the same error.
      let rating = try RatingArgument.parse(line.positionals[1], option: nil)
      command = makeTieCommand(Bowties.Rate.self) { $0.values = [.rating(rating)] }
    case ("favorite", 1):
      command = makeTieCommand(Bowties.Favorite.self) { $0.change = .on }
    case ("list", 0):
      command = makeCommand(Bowties.List.self) { $0.filterOptions = .unfiltered }
    default:
      return nil
    }
    do {
      try command.validate()
    } catch let exit as ExitCode {
      // validate() has reported the problem itself (ExitStatus.validating), and
      // ArgumentParser would pass this exit on untouched.
      throw exit
    } catch {
      // ArgumentParser reports anything else, with the command's usage.
      return nil
    }
    return command
  }

  /// The words after the subcommand's name, when every one of them is a positional
  /// argument, `--json` once, or `--store` with its value once.
  private struct Line {
    var positionals: [String] = []
    var store: String?
    var json = false

    init?(_ words: ArraySlice<String>) {
      var rest = words
      while let word = rest.popFirst() {
        if !word.hasPrefix("-") {
          positionals.append(word)
        } else if word == "--json", !json {
          json = true
        } else if word == "--store", store == nil, let value = rest.first,
          !value.isEmpty, !value.hasPrefix("-")
        {
          store = value
          rest = rest.dropFirst()
        } else if word.hasPrefix("--store="), store == nil, word.count > "--store=".count {
          store = String(word.dropFirst("--store=".count))
        } else {
          return nil
        }
      }
    }
  }
}

/// A command with the store and output options: what ``FastPath`` builds, typed as a
/// ``BowtiesCommand`` from the start: finding that conformance at run time (`as?`) would
/// scan every protocol conformance in the binary, a tenth of a `show`.
protocol FastPathCommand: BowtiesCommand {
  var storeOptions: StoreOptions { get set }
  var output: OutputOptions { get set }
}

/// A command of one tie.
protocol SingleTieCommand: FastPathCommand {
  var tie: String { get set }
}

extension Bowties.List: FastPathCommand {}

extension FilterOptions {
  /// Every tie in the app's order: each option as ArgumentParser leaves it when the line
  /// names none.
  static var unfiltered: FilterOptions {
    var options = FilterOptions()
    options.favorites = false
    options.minRating = nil
    options.maxRating = nil
    options.wornSince = nil
    options.notWornSince = nil
    options.neverWorn = false
    options.sort = .key
    options.reverse = false
    options.limit = nil
    return options
  }
}

extension Bowties.Show: SingleTieCommand {}
extension Bowties.Wear: SingleTieCommand {}
extension Bowties.Rate: SingleTieCommand {}
extension Bowties.Favorite: SingleTieCommand {}
