import ArgumentParser
import BowTieKit
import BowTieModel

extension Bowties {
  struct Rate: StoreCommand {
    static let configuration = CommandConfiguration(
      commandName: "rate",
      abstract: "Rate a tie from 0 to 5 (4.5, with a dot). Without a value, asks on a terminal.",
      // The words are an array only to take "-1" as a rating; one is given.
      usage: "bowties rate <tie> [<value>] [--store <path-or-uri>] [--json]")

    @Argument(help: .tie, completion: .custom(TieCompletion.keys))
    var tie: String

    // Taken as unrecognized input so that "-1" reaches the rating check and gets a
    // clear refusal instead of being mistaken for an option.
    @Argument(
      parsing: .allUnrecognized,
      help: ArgumentHelp("The rating: a number from 0 to 5, such as 4 or 4.5.", valueName: "value"))
    var values: [RatingWord] = []

    /// The ratings given: the words but a `--`.
    var ratings: [RatingArgument] {
      values.compactMap { word in
        if case .rating(let rating) = word { rating } else { nil }
      }
    }

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
      // After `--`, a word like an option is a rating, and refused as one.
      var endOfOptions = false
      for word in values {
        switch word {
        case .endOfOptions: endOfOptions = true
        case .option(let text) where endOfOptions: _ = try RatingArgument.parse(text, option: nil)
        case .option("--help"), .option("-h"): throw CleanExit.helpRequest(self)
        case .option("--version"): throw CleanExit.message(bowtiesVersion)
        case .option(let text): throw ValidationError("Unknown option '\(text)'")
        case .rating: break
        }
      }
      if ratings.count > 1 {
        throw ValidationError(
          "Unexpected argument '\(BowTie.formatRating(ratings[1].value))': give one rating")
      }
      if ratings.isEmpty && !Terminal.standardInputIsTerminal {
        throw ValidationError(
          "Missing expected argument '<value>': a rating from 0 to 5 "
            + "(bowties only asks for one on a terminal)")
      }
    }

    func run(store: BowTieStore) throws {
      let rating = try ratings.first?.value ?? askForRating(store: store)
      try TieOutput(json: output.json).printDetails(try store.rate(tie, rating: rating))
    }

    /// Asks until the answer is a valid rating, as the app re-presents its alert.
    private func askForRating(store: BowTieStore) throws -> Double {
      let current = try store.tie(matching: tie)
      let question =
        "Rating for \(current.name) (0 to 5, now \(BowTie.formatRating(current.rating))): "
      while true {
        guard let answer = Terminal.ask(question) else {
          Terminal.writeError("\n")
          throw BowTieError.usage("no rating given; \(current.name) is unchanged")
        }
        do {
          return try BowTie.parseRating(answer)
        } catch {
          Terminal.error(error.localizedDescription)
        }
      }
    }
  }
}

/// A word `rate` takes after the TIE: a rating, or what the `.allUnrecognized` strategy
/// hands over as a word too: the `--` that ends the options (`rate R -- 3`), and any other
/// option (`--help`), which `validate()` answers as ArgumentParser would have.
enum RatingWord: ArgumentValue, Equatable {
  case rating(RatingArgument)
  case endOfOptions
  /// `-` or `--` and a letter: an option, where `-1` is a rating out of range.
  case option(String)

  static func parse(_ text: String, option: String?) throws(BowTieError) -> RatingWord {
    if text == "--" { return .endOfOptions }
    let afterDash = text.dropFirst().drop(while: { $0 == "-" }).first
    if text.hasPrefix("-"), afterDash?.isLetter == true { return .option(text) }
    return .rating(try RatingArgument.parse(text, option: option))
  }
}
