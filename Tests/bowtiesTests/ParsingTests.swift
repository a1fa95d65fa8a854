import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation
import Testing

@testable import BowtiesCLI

/// Argument parsing alone, through `parseAsRoot`, as swift-argument-parser's docs advise.
@Suite("Parsing")
struct ParsingTests {
  @Test("each subcommand parses its arguments")
  func subcommands() throws {
    let show = try #require(try Bowties.parseAsRoot(["show", "R", "--json"]) as? Bowties.Show)
    #expect(show.tie == "R" && show.output.json)
    let rate = try #require(try Bowties.parseAsRoot(["rate", "cafe", "4.5"]) as? Bowties.Rate)
    #expect(rate.tie == "cafe" && rate.ratings == [RatingArgument(value: 4.5)])
    // `--` ends the options wherever it stands, before the rating too.
    for line in [["rate", "R", "--", "3"], ["rate", "R", "3", "--"], ["rate", "--", "R", "3"]] {
      let rate = try #require(try Bowties.parseAsRoot(line) as? Bowties.Rate, "\(line)")
      #expect(rate.tie == "R" && rate.ratings == [RatingArgument(value: 3)], "\(line)")
    }
    let favorite = try #require(
      try Bowties.parseAsRoot(["favorite", "R", "--toggle"]) as? Bowties.Favorite)
    #expect(favorite.change == .toggle)
    let seed = try #require(
      try Bowties.parseAsRoot(["seed", "-", "--replace", "--store", "/tmp/x"]) as? Bowties.Seed)
    #expect(seed.plist == "-" && seed.replace && seed.storeOptions.store == "/tmp/x")
    let wear = try #require(
      try Bowties.parseAsRoot(["wear", "R", "--date", "2026-11-21"]) as? Bowties.Wear)
    #expect(wear.date?.date == (try? DateArgument.parse("2026-11-21"))?.date)
  }

  @Test("each subcommand's explicit name is the one ArgumentParser would derive from its type")
  func commandNames() {
    // The names are spelled out so that start-up does not derive them: each derivation
    // was a String(describing:) that scanned every protocol conformance in the binary.
    for command in Bowties.configuration.subcommands {
      let typeName = String(describing: command)
      var derived = ""
      for character in typeName {
        if character.isUppercase && !derived.isEmpty { derived += "-" }
        derived += character.lowercased()
      }
      #expect(command.configuration.commandName == derived, "\(typeName)")
    }
  }

  @Test("rate's --help and -h, after the TIE or the rating, are help, as every command's are")
  func rateHelp() throws {
    let bowties = BowtiesSandbox()
    for arguments in [
      ["rate", "R", "--help"], ["rate", "R", "-h"], ["rate", "R", "4", "--help"],
    ] {
      let help = try bowties.run(BowtiesSandbox.binary.path, arguments)
      #expect(help.status == 0 && help.stderr.isEmpty, "\(arguments): \(help)")
      #expect(help.stdout.contains("USAGE: bowties rate <tie>"), "\(arguments): \(help)")
    }
  }

  /// rate's words are an array only so that "-1" reaches the rating check; its usage is
  /// written by hand to say one rating, and must keep up with the options it declares.
  @Test("rate's usage says one rating and names every option rate declares")
  func rateUsage() throws {
    let help = Bowties.helpMessage(for: Bowties.Rate.self)
    let usage = try #require(help.split(separator: "\n").first { $0.hasPrefix("USAGE: ") })
    #expect(usage.hasPrefix("USAGE: bowties rate <tie> [<value>] "), "\(usage)")
    #expect(!usage.contains("..."), "\(usage)")
    let options = help.matches(of: /(?m)^  (--[a-z-]+)/).map { String($0.1) }
    #expect(options.contains("--store"), "\(help)")
    for option in options where !["--help", "--version"].contains(option) {
      #expect(usage.contains("[\(option)"), "\(option) is not in \(usage)")
    }
  }

  @Test("each subcommand is reached by its name", arguments: Bowties.configuration.subcommands)
  func reachedByName(_ command: any ParsableCommand.Type) throws {
    let name = try #require(command.configuration.commandName)
    let parsed = try Bowties.parseAsRoot([name, "--help"])
    let stack =
      "commandStack: [\(String(reflecting: Bowties.self)), \(String(reflecting: command))]"
    #expect(String(describing: parsed).contains(stack))
    #expect(Bowties.helpMessage(for: command).contains("USAGE: bowties \(name)"))
  }

  @Test(
    "conflicting, missing or unknown arguments are usage errors that say what is wrong",
    arguments: [
      (["favorite", "R", "--off", "--toggle"], "--off"),
      (["show"], "Missing expected argument '<tie>'"),
      (["list", "extra"], "Unexpected argument 'extra'"),
      (["rate", "R", "1", "2"], "Unexpected argument '2'"),
      (["wear", "R", "--when", "today"], "Unknown option '--when'"),
      // rate takes its words unparsed, so that -1 is a rating refused; an option is not one.
      (["rate", "R", "--when"], "Unknown option '--when'"),
      (["rate", "R", "-x"], "Unknown option '-x'"),
      // An empty path would be the current folder.
      (["seed", ""], "<plist> needs a path"), (["backup", ""], "<path> needs a path"),
      (["restore", "", "--yes"], "<path> needs a path"),
      (["export", "--output", ""], "--output needs a path"),
      (["report", "--output", "", "--force"], "--output needs a path"),
      (["photo", "R", "--output", ""], "--output needs a path"),
      (["add", "--name", "Q", "--photo", ""], "--photo needs a path"),
      (["edit", "R", "--photo", ""], "--photo needs a path"),
    ])
  func usageErrors(_ arguments: [String], _ message: String) {
    #expect {
      try Bowties.parseAsRoot(arguments)
    } throws: { error in
      Bowties.exitCode(for: error) == ExitCode(64)
        && Bowties.message(for: error).contains(message)
    }
  }

  @Test(
    "a value that does not convert is invalid data (65), refused as the line is parsed, with a message that names the range",
    arguments: [
      (["rate", "R", "4,5"], "'4,5' is not a rating: use a number from 0 to 5"),
      (["rate", "R", "-1"], "'-1' is not a rating"),
      (["rate", "R", "--", "-1"], "'-1' is not a rating"),
      (["wear", "R", "--date", "soon"], "'soon' is not a date"),
      (["wear", "R", "--date", "2999-01-01"], "'2999-01-01' is after today"),
      (["edit", "R", "--last-worn", "2999-01-01"], "'2999-01-01' is after today"),
      (["report", "--months", "0"], "--months must be a whole number from 1 to 120, not '0'"),
      (["report", "--months", "121"], "--months must be a whole number from 1 to 120"),
      (["report", "--months=0"], "--months must be a whole number from 1 to 120, not '0'"),
      (["report", "--limit", "-5"], "--limit must be a whole number, 1 or more, not '-5'"),
      (["report", "--limit", "0"], "--limit must be a whole number, 1 or more, not '0'"),
      (
        ["report", "--stale-days", "9223372036854775807"],
        "--stale-days must be a whole number from 1 to 100000"
      ),
      (["suggest", "--count", "0"], "--count must be a whole number, 1 or more, not '0'"),
      (["list", "--limit", "５"], "--limit must be a whole number, 0 or more, not '５'"),
      (["list", "--limit", "99999999999999999999"], "--limit must be a whole number, 0 or more"),
      (["list", "--min-rating", "-1"], "'-1' is not a rating"),
      (["list", "--worn-since", "someday"], "'someday' is not a date"),
      (["history", "--until", "2026-02-30"], "'2026-02-30' is not a date"),
      (
        ["wear", "R", "--date", "-1000000d"],
        "'-1000000d' is too far back: an offset goes back at most 100000 days"
      ),
      (["history", "--until", "-99999999999999999999w"], "at most 100000 weeks"),
      (
        ["wear", "R", "--date", "+1d"],
        "'+1d' is not a date: an offset counts back from today, as -1d"
      ),
      (["list", "--worn-since", "3m"], "an offset counts back from today, as -3m"),
      (
        ["history", "--since", "10000-01-01"],
        "'10000-01-01' is not a date: years go from 0001 to 9999"
      ),
      // Dates before the year 1, which nothing stores or prints, whatever takes them.
      (["report", "--as-of", "-3000y"], "'-3000y' is not a date: years go from 0001 to 9999"),
      (["report", "--as-of", "0000-06-01"], "'0000-06-01' is not a date: years go from 0001"),
      (["history", "--since", "0000-12-31"], "'0000-12-31' is not a date: years go from 0001"),
      (["list", "--worn-since", "-2027y"], "'-2027y' is not a date: years go from 0001"),
      (["suggest", "--as-of", "-100000y"], "'-100000y' is not a date: years go from 0001"),
      (
        ["edit", "R", "--times-worn", "-1"],
        "--times-worn must be a whole number from 0 to 2147483647"
      ),
      (["add", "--name", "X", "--color", "#GGG"], "'#GGG' is not a color"),
      (["add", "--name", "X", "--price", "-5"], "'-5' is not a price"),
      // ArgumentParser's own message for a value not among an option's values: it lists them.
      (
        ["list", "--sort", "color"],
        "Please provide one of 'key', 'name', 'rating', 'worn' or 'last-worn'."
      ),
      (["report", "--format", "pdf"], "The value 'pdf' is invalid for '--format <format>'"),
    ])
  func invalidValues(_ arguments: [String], _ message: String) {
    #expect {
      try Bowties.parseAsRoot(arguments)
    } throws: { error in
      let (code, text) = ExitStatus.outcome(of: error)
      return code == 65 && text?.contains(message) == true
    }
  }

  @Test("a wear at a moment later today than now is refused; now and today are taken")
  func wearLaterThanNow() throws {
    let now = Date()
    // Two minutes on, unless that is tomorrow here: then one second on.
    let later = Calendar.current.isDate(now.addingTimeInterval(120), inSameDayAs: now) ? 120.0 : 1.0
    let soon = ISO8601DateFormatter().string(from: now.addingTimeInterval(later))
    for option in [["wear", "R", "--date"], ["edit", "R", "--last-worn"]] {
      #expect {
        try Bowties.parseAsRoot(option + [soon])
      } throws: { error in
        let (code, text) = ExitStatus.outcome(of: error)
        return code == 65 && text?.contains("'\(soon)' is later than now") == true
      }
      for taken in ["now", "today", "-1h"] {
        #expect(throws: Never.self) { try Bowties.parseAsRoot(option + [taken]) }
      }
    }
  }

  @Test(
    "a line that ArgumentParser refuses for anything but a value's conversion is a usage error (64)",
    arguments: [
      ["favorite", "R", "--off", "--toggle"], ["show"], ["list", "extra"], ["rate", "R", "1", "2"],
      ["wear", "R", "--when", "today"], ["list", "--limit"], ["report", "--months"],
      ["report", "--limit", "2", "--all"], ["list", "--min-rating", "4", "--max-rating", "3"],
      ["history", "--since", "2026-12-01", "--until", "2026-11-30"],
    ])
  func usageRefusals(_ arguments: [String]) {
    #expect {
      try Bowties.parseAsRoot(arguments)
    } throws: { error in
      ConversionFailure(error) == nil && ExitStatus.outcome(of: error).code == 64
    }
  }

  @Test(
    "every option and argument that converts its text is an ArgumentValue, or one of a list of cases"
  )
  func typedValues() {
    var checked = 0
    func walk(_ arguments: any ParsableArguments.Type, _ path: String) {
      for child in Mirror(reflecting: arguments.init()).children {
        let property = type(of: child.value)
        let name = "\(path).\(child.label ?? "?")"
        if let group = property as? any OptionGroupProperty.Type {
          walk(group.groupType, name)
        } else if property is any HoldsArgumentValue.Type {
          checked += 1
        } else if let value = (property as? any ValueProperty.Type)?.value {
          // Text taken as it is (a name, a path), or ArgumentParser's list of cases,
          // which its message names.
          let plain = [String.self, String?.self, [String].self].map(ObjectIdentifier.init)
            .contains(ObjectIdentifier(value))
          let wrapped = (value as? any Unwrapped.Type)?.wrapped ?? value
          let cases =
            (wrapped as? any ExpressibleByArgument.Type)?.allValueStrings.isEmpty == false
          #expect(plain || cases, "\(name): \(value)")
        }
      }
    }
    for command in Bowties.configuration.subcommands {
      walk(command, String(describing: command))
    }
    // The walk reaches the typed values: --date, ratings, colours, prices, counts…
    #expect(checked >= 20)
  }

  @Test("the POSIX locale's day without ICU is what DateFormatter writes")
  func posixDay() throws {
    let formatter = DateFormatter()
    formatter.dateStyle = .medium
    formatter.timeStyle = .none
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.gregorianStartDate = .distantPast
    // Every day of 2024 (a leap year), each at another second of the day, then 2,000
    // instants spread from 1583 to 9999, a prime stride apart so they meet every month,
    // weekday and time of day.
    var dates = (0..<366).map { day in
      Date(timeIntervalSince1970: 1_704_067_200 + Double(day * 86_400 + day * 7_919 % 86_400))
    }
    dates += (0..<2_000).map { step in
      Date(timeIntervalSince1970: -12_212_467_200 + Double(step) * 132_807_383)
    }
    for date in dates {
      #expect(TieOutput.posixDay(date) == formatter.string(from: date), "\(date)")
    }
    // Days before 1583 are left to ICU.
    #expect(TieOutput.posixDay(Date(timeIntervalSince1970: -30_000_000_000)) == nil)
  }

  @Test("history's moments, without ICU in the POSIX locale, are what DateFormatter writes")
  func historyMoments() throws {
    let formatter = DateFormatter()
    formatter.dateStyle = .medium
    formatter.timeStyle = .short
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.gregorianStartDate = .distantPast
    // Every minute of a day, twice, from a second before midnight (so noon and midnight are
    // met, each hour of both halves, and each minute from one row to the next), then 2,000
    // instants spread from 1583 to 9999, and some before 1583, left to ICU.
    var dates = (0..<2_880).map { Date(timeIntervalSince1970: 1_795_247_999 + Double($0 * 30)) }
    dates += (0..<2_000).map {
      Date(timeIntervalSince1970: -12_212_467_200 + Double($0) * 132_807_383)
    }
    dates += [-30_000_000_000, -12_212_467_201].map { Date(timeIntervalSince1970: $0) }
    var moments = TieOutput.MinuteText()
    for date in dates {
      let expected = LocalizedText.plainSpaces(formatter.string(from: date))
      #expect(moments.text(for: date) == expected, "\(date)")
    }
  }
}

/// An `@Option` or `@Argument`, and the type of its value.
private protocol ValueProperty {
  static var value: Any.Type { get }
}

extension Option: ValueProperty {
  static var value: Any.Type { Value.self }
}

extension Argument: ValueProperty {
  static var value: Any.Type { Value.self }
}

/// The type an optional wraps.
private protocol Unwrapped {
  static var wrapped: Any.Type { get }
}

extension Optional: Unwrapped {
  static var wrapped: Any.Type { Wrapped.self }
}
