import BowTieKit
import BowTieModel
import Foundation
import Testing

/// Every command end to end, through the built binary, exit codes included.
@Suite("Commands")
struct CommandTests {
  @Test("show on a new store creates it with the sample ties and says so on stderr")
  func firstLaunch() throws {
    let bowties = BowtiesSandbox()
    let result = try bowties("show", "R")
    #expect(result.status == 0)
    #expect(result.stderr == "bowties: created the store \(bowties.store) with 7 ties\n")
    #expect(
      result.stdout == """
        Red Bow Tie
          Key         R
          Rating      4/5
          Times worn  10
          Last worn   Oct 14, 2026
          Favorite    yes
          URL         https://en.wikipedia.org/wiki/Bow_tie
          Price       none
          Color       #EF3024
          Photo       PNG 128×128, 10.8 KB

        """)
    #expect(!result.stdout.contains("\u{1B}"), "no color when stdout is not a terminal")
    let mode = try FileManager.default.attributesOfItem(atPath: bowties.store)[.posixPermissions]
    #expect(mode as? Int == 0o600)
    let second = try bowties("show", "r")
    #expect(second.status == 0 && second.stderr.isEmpty)
  }

  @Test("a command closes its store, finished or failed: SQLite folds its log in, removes it")
  func storeClosedAtExit() throws {
    let bowties = BowtiesSandbox()
    func expectClosed(after arguments: [String], status: Int32) throws {
      let result = try bowties.run(
        BowtiesSandbox.binary.path, arguments + ["--store", bowties.store])
      #expect(result.status == status, "\(arguments): \(result.stderr)")
      for suffix in ["-wal", "-shm"] {
        #expect(
          !FileManager.default.fileExists(atPath: bowties.store + suffix), "\(arguments)\(suffix)")
      }
    }
    // The fast-path lines and ArgumentParser's alike: main closes the stores either opened.
    for arguments in [
      ["show", "R"], ["wear", "R"], ["rate", "R", "3"], ["list"], ["history", "R"],
    ] {
      try expectClosed(after: arguments, status: 0)
    }
    #expect(try bowties("show", "R", "--json").stdout.contains("\"rating\" : 3"))
    // A command that fails after opening the store closes it as well.
    for arguments in [["show", "nosuch"], ["rate", "nosuch", "2"]] {
      try expectClosed(after: arguments, status: 1)
    }
  }

  @Test("show --json has the plist's keys plus the photo's bytes, format and size")
  func showJSON() throws {
    let bowties = BowtiesSandbox()
    let result = try bowties("show", "green", "--json")
    #expect(result.status == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(
      Set(object.keys) == [
        "id", "name", "searchKey", "rating", "timesWorn", "lastWorn", "isFavorite", "url",
        "price", "currency", "tintColor", "photoBytes", "photoFormat", "photoWidth", "photoHeight",
      ])
    #expect(object["name"] as? String == "Green Bow Tie")
    #expect(object["id"] as? String == "0B0771E5-0000-4000-8000-000000000004")
    #expect(object["lastWorn"] as? String == "2026-11-01T18:45:00Z")
    #expect(object["rating"] as? Double == 4.5)
    #expect((object["tintColor"] as? [String: Int]) == ["red": 34, "green": 153, "blue": 84])
    #expect((object["photoBytes"] as? Int ?? 0) > 1000)
    #expect(object["photoFormat"] as? String == "png")
    #expect(object["photoWidth"] as? Int == 128 && object["photoHeight"] as? Int == 128)
    let indigo = try bowties("show", "I", "--json").stdout
    #expect(indigo.contains("\"lastWorn\" : null"))
  }

  @Test("list --json, written a thousand ties at a time, is the one document JSONEncoder writes")
  func listJSONInBatches() throws {
    let bowties = BowtiesSandbox()
    let entries = (0..<2_500).map { index -> [String: Any] in
      ["name": "Batch Tie \(index)", "searchKey": "B\(index)", "rating": index % 6]
    }
    let file = bowties.folder.appendingPathComponent("ties.json")
    try JSONSerialization.data(withJSONObject: entries).write(to: file)
    try #require(try bowties("seed", file.path).status == 0)

    let result = try bowties("list", "--json")
    #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    let ties = try JSONDecoder().decode([TieJSON].self, from: Data(result.stdout.utf8))
    #expect(ties.count == 2_500)
    let whole = try TieJSON.makeEncoder().encode(ties) + Data("\n".utf8)
    #expect(Data(result.stdout.utf8) == whole)
    let empty = try bowties("list", "--json", "--favorites", "--never-worn")
    #expect(
      empty.stdout == String(decoding: try TieJSON.makeEncoder().encode([TieJSON]()), as: UTF8.self)
        + "\n")
  }

  @Test("list prints R O Y G B I V, for people and as JSON")
  func list() throws {
    let bowties = BowtiesSandbox()
    let text = try bowties("list")
    #expect(text.status == 0)
    let lines = text.stdout.split(separator: "\n")
    #expect(lines.count == 7)
    #expect(lines.map { $0.prefix(1) } == ["R", "O", "Y", "G", "B", "I", "V"])
    #expect(lines[0] == "R  Red Bow Tie     4/5    ★  #EF3024  worn 10×, last Oct 14, 2026")
    #expect(lines[5].hasSuffix("never worn"))
    let json = try bowties.listJSON()
    #expect(json.map { $0["searchKey"] as? String } == ["R", "O", "Y", "G", "B", "I", "V"])
    let show = try JSONSerialization.jsonObject(
      with: Data(try bowties("show", "V", "--json").stdout.utf8))
    #expect(
      NSDictionary(dictionary: json[6]) == NSDictionary(dictionary: show as? [String: Any] ?? [:]))
  }

  @Test("list's rating column is as wide as its longest rating: none is cut, all line up")
  func listRatings() throws {
    let bowties = BowtiesSandbox()
    #expect(try bowties("rate", "R", "4.25").status == 0)
    #expect(try bowties("rate", "O", "0.125").status == 0)
    let lines = try bowties("list").stdout.split(separator: "\n")
    #expect(lines[0] == "R  Red Bow Tie     4.25/5   ★  #EF3024  worn 10×, last Oct 14, 2026")
    #expect(lines[1].hasPrefix("O  Orange Bow Tie  0.125/5     #F37B1E"))
    // Where the colour begins, in characters: one column for all seven lines.
    #expect(Set(lines.map { $0.prefix(while: { $0 != "#" }).count }).count == 1)
  }

  @Test("list and the text report line up names in any script: wide characters, accents")
  func columnsInCells() throws {
    let bowties = BowtiesSandbox()
    for (name, key) in [("蝶ネクタイ・赤い", "J"), ("Cafe\u{301} noir", "C"), ("Party 🎉 tie", "P")] {
      #expect(try bowties("add", "--name", name, "--key", key).status == 0)
    }
    // The widest name is the Japanese one: 8 characters, 16 cells.
    let expected = [
      "R  Red Bow Tie       4/5    ★  #EF3024  worn 10×, last Oct 14, 2026",
      "C  Cafe\u{301} noir         0/5       none     never worn",
      "P  Party 🎉 tie      0/5       none     never worn",
      "J  蝶ネクタイ・赤い  0/5       none     never worn",
    ]
    let list = try bowties("list").stdout.split(separator: "\n").map(String.init)
    #expect([list[0]] + list.suffix(3) == expected)
    let report = try bowties("report", "--as-of", "2026-11-27").stdout
      .split(separator: "\n").map(String.init)
    let allTies = report.suffix(10)
    #expect([allTies.first!] + allTies.suffix(3) == expected.map { "  " + $0 })
  }

  @Test("wear counts one more wear, now or on --date")
  func wear() throws {
    let bowties = BowtiesSandbox()
    let result = try bowties("wear", "indigo", "--date", "2026-11-20T07:30:00Z", "--json")
    #expect(result.status == 0)
    #expect(result.stdout.contains("\"timesWorn\" : 1,"))
    #expect(result.stdout.contains("\"lastWorn\" : \"2026-11-20T07:30:00Z\""))
    let now = try bowties("wear", "I")
    #expect(now.status == 0 && now.stdout.contains("Times worn  2"))
    let bad = try bowties("wear", "I", "--date", "last tuesday")
    #expect(bad.status == 65)
    #expect(
      bad.stderr
        == "bowties: 'last tuesday' is not a date: use 2026-11-21, 2026-11-21T08:00:00Z, now, "
        + "today, yesterday, or -30d, -2w, -3m, -1y, -12h\n")
    #expect(try bowties.sqlite("SELECT timesWorn FROM bowTie WHERE searchKey = 'I'") == "2\n")
  }

  @Test(
    "rate refuses anything but a dot decimal in 0…5 and leaves the rating alone",
    arguments: ["7", "-1", "nan", "inf", "abc", "4,5", "", "5.5", "-0.5"])
  func rateRefusals(value: String) throws {
    let bowties = BowtiesSandbox()
    try bowties("show", "R")
    let result = try bowties("rate", "R", value)
    #expect(result.status == 65, "\(result)")
    #expect(result.stderr.hasPrefix("bowties: "))
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stdout.isEmpty)
    #expect(try bowties.sqlite("SELECT rating FROM bowTie WHERE searchKey = 'R'") == "4.0\n")
  }

  @Test("rate accepts a dot decimal whatever the locale")
  func rate() throws {
    let bowties = BowtiesSandbox()
    let result = try bowties("rate", "R", "4.5", environment: ["LANG": "de_DE.UTF-8"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("Rating      4.5/5"))
    #expect(result.stdout.contains("Last worn   14.10.2026"), "dates follow the locale")
    // A language ICU does not know is the POSIX locale, as the C library has it.
    let unknown = try bowties("show", "R", environment: ["LC_ALL": "xx_YY.UTF-8"])
    #expect(unknown.stdout.contains("Last worn   Oct 14, 2026"), "\(unknown.stdout)")
  }

  @Test("a day is the local one, the same with and without ICU's date format")
  func localDay() throws {
    let bowties = BowtiesSandbox()
    // 02:30 UTC on Oct 14 is still Oct 13 in New York, and already Oct 14 in Tokyo.
    let edit = try bowties("edit", "G", "--last-worn", "2026-10-14T02:30:00Z")
    #expect(edit.status == 0, "\(edit)")
    for (zone, day) in [("America/New_York", "Oct 13, 2026"), ("Asia/Tokyo", "Oct 14, 2026")] {
      // LANG=C writes the date itself; en_US goes through ICU.
      for lang in ["C", "en_US.UTF-8"] {
        let result = try bowties("show", "G", environment: ["TZ": zone, "LANG": lang])
        #expect(result.stdout.contains("Last worn   \(day)"), "\(zone) \(lang): \(result.stdout)")
      }
    }
  }

  @Test("TZ written as the C library takes it counts days in the zone it prints dates in")
  func timeZoneForms() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let link = bowties.folder.appendingPathComponent("localtime").path
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: "/usr/share/zoneinfo/Asia/Tokyo")
    // Each form, and the zone's name, which Foundation and the C library read alike.
    let forms = [
      (":Asia/Tokyo", "Asia/Tokyo"), ("/usr/share/zoneinfo/Asia/Tokyo", "Asia/Tokyo"),
      (":\(link)", "Asia/Tokyo"), ("UTC+3", "Etc/GMT+3"), ("<+14>-14", "Etc/GMT-14"),
    ]
    for (form, name) in forms {
      func answers(_ zone: String) throws -> [String] {
        let environment = ["TZ": zone]
        try bowties.sqlite(
          "DELETE FROM wearEvent WHERE tieId = (SELECT id FROM bowTie WHERE searchKey = 'I')")
        let wear = try bowties("wear", "I", "--date", "today", "--json", environment: environment)
        let history = try bowties("history", "I", environment: environment)
        let listed = try bowties("list", "--worn-since", "today", environment: environment)
        let report = try bowties("report", "--format", "csv", environment: environment)
        let stored = try bowties.sqlite("SELECT lastWorn FROM bowTie WHERE searchKey = 'I'")
        return [wear.stdout, history.stdout, listed.stdout, report.stdout, stored]
      }
      let expected = try answers(name)
      #expect(try answers(form) == expected, "\(form)")
      // The wear is at the zone's midnight, and history prints that midnight.
      #expect(expected[1].contains("at 12:00 AM  I  Indigo Bow Tie"), "\(form): \(expected[1])")
    }
  }

  @Test("rate without a value and without a terminal is a usage error")
  func rateWithoutTerminal() throws {
    let bowties = BowtiesSandbox()
    let result = try bowties("rate", "R")
    #expect(result.status == 64)
    #expect(result.stderr.contains("Missing expected argument '<value>'"))
  }

  @Test("rate without a value on a terminal asks, and asks again after a bad answer")
  func ratePrompt() throws {
    let bowties = BowtiesSandbox()
    try bowties("show", "R")
    let result = try bowties.onTerminal("rate", "R", stdin: Data("4,5\n9\n3.5\n".utf8))
    #expect(result.status == 0, "\(result)")
    let prompts = result.stdout.components(separatedBy: "Rating for Red Bow Tie (0 to 5, now 4): ")
    #expect(prompts.count == 4, "three prompts: \(result.stdout)")
    #expect(result.stdout.contains("'4,5' is not a rating"))
    #expect(result.stdout.contains("rating 9 is outside 0…5"))
    #expect(try bowties.sqlite("SELECT rating FROM bowTie WHERE searchKey = 'R'") == "3.5\n")
  }

  @Test(
    "on a terminal the color is a swatch: truecolor where COLORTERM says so, else the palette's nearest; none with NO_COLOR or TERM=dumb"
  )
  func terminalColor() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let truecolor = try bowties.onTerminal("show", "R", environment: ["COLORTERM": "truecolor"])
    #expect(truecolor.stdout.contains("\u{1B}[48;2;239;48;36m  \u{1B}[0m #EF3024"))
    let palette = try bowties.onTerminal("list", environment: ["TERM": "xterm-256color"])
    #expect(palette.stdout.contains("\u{1B}[48;5;196m  \u{1B}[0m #EF3024"), "\(palette)")
    #expect(!palette.stdout.contains("48;2;"), "\(palette)")
    for environment in [["NO_COLOR": "1"], ["TERM": "dumb"]] {
      let plain = try bowties.onTerminal("show", "R", environment: environment)
      #expect(plain.status == 0)
      #expect(plain.stdout.contains("Color       #EF3024"))
      #expect(!plain.stdout.contains("\u{1B}["), "\(environment)")
    }
  }

  @Test("favorite sets, clears and toggles")
  func favorite() throws {
    let bowties = BowtiesSandbox()
    #expect(try bowties("favorite", "Y").stdout.contains("Favorite    yes"))
    #expect(try bowties("favorite", "Y", "--off").stdout.contains("Favorite    no"))
    #expect(try bowties("favorite", "Y", "--toggle").stdout.contains("Favorite    yes"))
    #expect(
      try bowties("favorite", "Y", "--toggle", "--json").stdout.contains("\"isFavorite\" : false"))
    let both = try bowties("favorite", "Y", "--off", "--toggle")
    #expect(both.status == 64)
  }

  @Test("no such tie and ambiguous ties exit 1, listing the candidates")
  func lookUpFailures() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let missing = try bowties("show", "teal")
    #expect(missing.status == 1 && missing.stderr == "bowties: no tie matches 'teal'\n")
    let seedFile = bowties.folder.appendingPathComponent("more.plist")
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><array>
      <dict><key>name</key><string>Café Bow Tie</string><key>searchKey</key><string>C1</string>
      <key>rating</key><integer>3</integer><key>tintColor</key><dict><key>red</key><integer>1</integer>
      <key>green</key><integer>2</integer><key>blue</key><integer>3</integer></dict></dict>
      <dict><key>name</key><string>Café Noir</string><key>searchKey</key><string>C2</string>
      <key>rating</key><real>2.5</real><key>tintColor</key><dict><key>red</key><integer>1</integer>
      <key>green</key><integer>2</integer><key>blue</key><integer>3</integer></dict></dict>
      </array></plist>
      """
    try Data(plist.utf8).write(to: seedFile)
    try bowties("list")
    #expect(try bowties("seed", seedFile.path).stdout == "added 2, replaced 0, skipped 0\n")
    #expect(try bowties("show", "cafe b").stdout.hasPrefix("Café Bow Tie\n"))
    let ambiguous = try bowties("show", "cafe")
    #expect(ambiguous.status == 1)
    #expect(
      ambiguous.stderr == "bowties: 'cafe' matches 2 ties: Café Bow Tie (C1), Café Noir (C2)\n")
    // Ten are listed, and more than ten are not counted as ten.
    for number in 1...11 {
      try bowties("add", "--name", "Café \(number)", "--key", "K\(number)", "--color", "red")
    }
    let many = try bowties("show", "café")
    #expect(many.status == 1)
    #expect(
      many.stderr.hasPrefix("bowties: 'café' matches more than 10 ties: Café 1 (K1), ")
        && many.stderr.hasSuffix(", …\n"), "\(many)")
  }

  @Test("help and unknown options follow the usage conventions")
  func usage() throws {
    let bowties = BowtiesSandbox()
    let help = try bowties("--help", withStore: false)
    #expect(help.status == 0 && help.stdout.contains("\nEXIT STATUS:\n   0  success\n"))
    let unknown = try bowties("show", "R", "--colour")
    #expect(unknown.status == 64)
    #expect(unknown.stderr == "bowties: Unknown option '--colour' (see --help)\n")
    let noCommand = try bowties("frobnicate", withStore: false)
    #expect(noCommand.status == 64)
  }

  @Test("a mistyped command is refused with the nearest command's name, exit 64")
  func unknownCommand() throws {
    let bowties = BowtiesSandbox()
    for arguments in [["weer", "R"], ["help", "weer"], ["weer", "R", "--store", bowties.store]] {
      let result = try bowties.run(BowtiesSandbox.binary.path, arguments)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.stderr == "bowties: unknown command 'weer'; did you mean 'wear'?\n")
      #expect(result.stdout.isEmpty)
    }
    for (typed, meant) in [
      ("shwo", "show"), ("lst", "list"), ("expotr", "export"), ("Wear", "wear"),
    ] {
      let result = try bowties.run(BowtiesSandbox.binary.path, [typed, "R"])
      #expect(result.status == 64)
      #expect(result.stderr == "bowties: unknown command '\(typed)'; did you mean '\(meant)'?\n")
    }
    for far in [["frobnicate"], ["help", "frobnicate"], ["zz", "R"]] {
      let result = try bowties.run(BowtiesSandbox.binary.path, far)
      #expect(result.status == 64, "\(far)")
      #expect(
        result.stderr == "bowties: unknown command '\(far.last == "R" ? "zz" : "frobnicate")'\n")
    }
    // A known command's help is still its help.
    let help = try bowties.run(BowtiesSandbox.binary.path, ["help", "wear"])
    #expect(help.status == 0 && help.stdout.contains("USAGE: bowties wear"))
    #expect(try bowties.run(BowtiesSandbox.binary.path, ["help"]).status == 0)
  }

  @Test(
    "an option before the command is refused, 64, with the line the right way round, which a shell runs"
  )
  func optionBeforeCommand() throws {
    let bowties = BowtiesSandbox()
    let store = bowties.folder.appendingPathComponent("it's mine.sqlite").path
    let quoted = "'" + store.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    for (arguments, rest) in [
      (["--store", store, "wear", "R"], "wear R --store \(quoted)"),
      (["--json", "show", "R", "--store", store], "show R --store \(quoted) --json"),
    ] {
      let refused = try bowties.run(BowtiesSandbox.binary.path, arguments)
      #expect(refused.status == 64, "\(arguments)")
      #expect(refused.stdout.isEmpty)
      let prefix =
        "bowties: unknown option '\(arguments[0])' before the command; "
        + "options go after the command's name: bowties "
      #expect(refused.stderr == prefix + rest + "\n")
      // The line as given, run by a shell: the command it names.
      let line = String(refused.stderr.dropFirst(prefix.count).dropLast())
      let run = try bowties.run(
        "/bin/sh", ["-c", "\"$0\" " + line, BowtiesSandbox.binary.path])
      #expect(run.status == 0, "\(line): \(run.stderr)")
    }
    let shown = try bowties("show", "R", "--store", store, withStore: false)
    #expect(shown.stdout.contains("Times worn  11"))
    // Without a command after it, ArgumentParser's own message.
    let alone = try bowties.run(BowtiesSandbox.binary.path, ["--store", store])
    #expect(alone.status == 64)
    #expect(alone.stderr == "bowties: Unknown option '--store' (see --help)\n")
  }

  @Test(
    "a name or value that begins with '-' is refused, 64, with how to write it, never taken for help"
  )
  func dashValues() throws {
    let bowties = BowtiesSandbox()
    let added = try bowties("add", "--name=-ish", "--json")
    #expect(added.status == 0, "\(added.stderr)")
    // ArgumentParser reads -ish as -i -s -h, and would print show's help and exit 0.
    let prefix =
      "bowties: unknown option '-ish'; an argument that begins with '-' goes after '--', "
      + "which ends the options"
    let worn = try bowties.run(BowtiesSandbox.binary.path, ["wear", "-ish"])
    #expect(worn.status == 64)
    #expect(worn.stdout.isEmpty)
    #expect(worn.stderr == prefix + ": bowties wear -- -ish\n")
    let line = String(worn.stderr.dropFirst((prefix + ": bowties ").count).dropLast())
    let run = try bowties.run(
      "/bin/sh", ["-c", "\"$0\" " + line, BowtiesSandbox.binary.path],
      environment: ["BOWTIES_STORE": bowties.store])
    #expect(run.status == 0, "\(line): \(run.stderr)")
    // Worn once: by the line suggested, not by any refused before it.
    #expect(run.stdout.contains("Times worn  1\n"))
    // With an option after it, the advice alone.
    let withStore = try bowties("wear", "-ish")
    #expect(withStore.status == 64)
    #expect(withStore.stderr == prefix + "\n")
    let named = try bowties("add", "--name", "-ish")
    #expect(named.status == 64)
    #expect(
      named.stderr
        == "bowties: Missing value for '--name <name>'; a value that begins with '-' is "
        + "written with '=': --name=-ish\n")
    let shown = try bowties("show", "-isx")
    #expect(shown.status == 64)
    #expect(
      shown.stderr
        == "bowties: Missing expected argument '<tie>'; an argument that begins with '-' goes "
        + "after '--', which ends the options\n")
    // One letter after the dash, where ArgumentParser named the missing TIE first: the
    // option is named, with the same advice; a long one, alone.
    let advice = "an argument that begins with '-' goes after '--', which ends the options"
    for (arguments, message) in [
      (["wear", "-i"], "unknown option '-i'; " + advice),
      (["show", "-R"], "unknown option '-R'; " + advice),
      (["show", "--bogus"], "unknown option '--bogus'"),
    ] {
      let refused = try bowties(arguments)
      #expect(refused.status == 64, "\(arguments): \(refused)")
      #expect(refused.stderr == "bowties: \(message)\n", "\(arguments): \(refused)")
      #expect(try bowties.sqlite("SELECT timesWorn FROM bowTie WHERE searchKey = 'I'") == "0\n")
    }
    #expect(
      try bowties("show").stderr == "bowties: Missing expected argument '<tie>' (see --help)\n")
    // Help asked for is still help.
    for help in ["-h", "-help", "--help"] {
      let asked = try bowties("show", help, withStore: false)
      #expect(asked.status == 0 && asked.stdout.hasPrefix("OVERVIEW: Show one tie"), "\(help)")
    }
  }

  @Test("--help ends its overview with every exit code and its meaning, one line each")
  func exitStatusTable() throws {
    let bowties = BowtiesSandbox()
    let help = try bowties("--help", withStore: false).stdout
    let start = try #require(help.range(of: "EXIT STATUS:\n"))
    let lines = help[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("  ") }
    let codes = lines.map { $0.split(separator: " ").first.map(String.init) ?? "" }
    #expect(codes == ["0", "1", "64", "65", "66", "70", "73", "74", "75", "77"])
    // The codes right-aligned, the meanings in one column, and no line wrapped in help or
    // in the man page, which indents it by 5 columns.
    #expect(lines.allSatisfy { $0.count <= 72 && $0.dropFirst(6).first != " " })
    #expect(Set(lines.map { $0.prefix(6).last }) == [" "])
    #expect(
      lines.contains("  73  an output file cannot be written, or exists already (see --force)"))
    // Each code a failure exits with is in the table.
    let failures: [[String]] = [
      ["show", "teal"], ["show", "R", "--colour"], ["rate", "R", "9"],
      ["seed", "nowhere.plist"], ["backup", bowties.store],
    ]
    for arguments in failures {
      let status = try bowties(arguments).status
      #expect(codes.contains(String(status)) && status != 0, "\(arguments): \(status)")
    }
  }

  /// Each command that writes a file the user names, with that file's path in the test's
  /// folder.
  static let outputFiles: [(arguments: [String], file: String)] = [
    (["photo", "R", "--output", "red.png"], "red.png"),
    (["photo", "R", "--output", "photos/"], "photos/R.png"),
    (["export", "--output", "ties.plist"], "ties.plist"),
    (["export", "--format", "json", "--output", "ties/"], "ties/SampleData.json"),
    (["report", "--output", "report.txt"], "report.txt"),
    (["backup", "copy.sqlite"], "copy.sqlite"),
  ]

  @Test(
    "a file the user names is never replaced without --force: exit 73, one line, untouched",
    arguments: outputFiles)
  func outputFileRule(arguments: [String], file: String) throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let path = bowties.folder.appendingPathComponent(file)
    try FileManager.default.createDirectory(
      at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("mine\n".utf8).write(to: path)
    let entries = try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path)
    let refused = try bowties(arguments)
    #expect(refused.status == 73, "\(refused)")
    #expect(
      refused.stderr
        == "bowties: cannot write \(path.path): it already exists; use --force to replace it\n")
    #expect(try Data(contentsOf: path) == Data("mine\n".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: bowties.folder.path) == entries)
    let forced = try bowties(arguments + ["--force"])
    #expect(forced.status == 0, "\(forced)")
    #expect(try Data(contentsOf: path) != Data("mine\n".utf8))
    #expect(try Data(contentsOf: path).count > 100)
    // Written under a temporary name, renamed into place: no temporary file stays behind.
    let left = try FileManager.default.contentsOfDirectory(
      atPath: path.deletingLastPathComponent().path)
    #expect(!left.contains { $0.hasPrefix(".tmp-") || $0.contains(".backup-") }, "\(left)")
  }

  @Test("backup --force replaces an older backup, its unused photos too, but never the store")
  func backupForce() throws {
    let bowties = BowtiesSandbox()
    let big = bowties.folder.appendingPathComponent("big.png")
    try BowtiesSandbox.noisePNG(seed: 7).write(to: big)
    #expect(try bowties("edit", "R", "--photo", big.path).status == 0)
    let copy = bowties.folder.appendingPathComponent("copy.sqlite").path
    #expect(try bowties("backup", copy).status == 0)
    let photos = bowties.folder.appendingPathComponent(".copy_SUPPORT/_EXTERNAL_DATA").path
    #expect(try FileManager.default.contentsOfDirectory(atPath: photos).count == 1)
    // Another store, without that photo, backed up over the first backup.
    let other = bowties.folder.appendingPathComponent("other.sqlite").path
    let replaced = try bowties(["backup", copy, "--force"], store: other)
    #expect(replaced.status == 0, "\(replaced)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: photos).isEmpty)
    #expect(try bowties(["show", "R"], store: copy).stdout.contains("Photo       PNG"))
    #expect(try bowties(["doctor"], store: copy).status == 0)
    let itself = try bowties("backup", bowties.store, "--force")
    #expect(itself.status == 73)
    #expect(itself.stderr == "bowties: cannot write \(bowties.store): it is the store itself\n")
    #expect(try bowties("show", "R").stdout.contains("Photo       PNG 260×260"))
  }

  @Test("no --output, even with --force, replaces the store, its log or a link to it: exit 73")
  func outputOverTheStore() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let before = try Data(contentsOf: URL(fileURLWithPath: bowties.store))
    let fileManager = FileManager.default
    try fileManager.createSymbolicLink(
      atPath: bowties.folder.appendingPathComponent("link.sqlite").path,
      withDestinationPath: bowties.store)
    try fileManager.createSymbolicLink(
      atPath: bowties.folder.appendingPathComponent("here").path,
      withDestinationPath: bowties.folder.path)
    let store = bowties.store
    let cases: [([String], String)] = [
      (["report", "--output", store, "--force"], "\(store): it is the store itself"),
      (
        ["report", "--output", "here/BowTies.sqlite"], "here/BowTies.sqlite: it is the store itself"
      ),
      (["export", "--output", "link.sqlite", "--force"], "link.sqlite: it is the store itself"),
      (
        ["report", "--output", store + "-wal", "--force"],
        "\(store)-wal: it is the store's write-ahead log"
      ),
      (
        ["export", "--output", store + "-shm", "--force"],
        "\(store)-shm: it is the store's shared-memory index"
      ),
      (["backup", store + "-wal", "--force"], "\(store)-wal: it is the store's write-ahead log"),
      (["backup", "link.sqlite", "--force"], "link.sqlite: it is the store itself"),
      // Without --force too: "it already exists; use --force" would send the user to a
      // second refusal.
      (["backup", store], "\(store): it is the store itself"),
      (["backup", store + "-wal"], "\(store)-wal: it is the store's write-ahead log"),
      (["export", "--output", store], "\(store): it is the store itself"),
    ]
    for (arguments, message) in cases {
      let result = try bowties(arguments, store: store)
      #expect(result.status == 73, "\(arguments): \(result)")
      #expect(result.stderr.hasPrefix("bowties: cannot write "), "\(arguments): \(result)")
      #expect(result.stderr.hasSuffix(message + "\n"), "\(arguments): \(result)")
    }
    // A photo's file name is checked against its format first: a store named without an
    // extension.
    let plain = bowties.folder.appendingPathComponent("ties").path
    #expect(try bowties(["list"], store: plain).status == 0)
    let photo = try bowties(["photo", "R", "--output", "here/ties", "--force"], store: plain)
    #expect(photo.status == 73 && photo.stderr.hasSuffix("here/ties: it is the store itself\n"))
    #expect(try bowties(["doctor"], store: plain).status == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    #expect(
      try fileManager.destinationOfSymbolicLink(atPath: "\(bowties.folder.path)/link.sqlite")
        == store)
    #expect(try bowties("doctor").status == 0)
  }

  @Test(
    "--output into a device writes through it, into a link replaces what it leads to; a folder, a link to nothing, or a backup onto any of them is refused: exit 73"
  )
  func outputOntoWhatIsNoFile() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let folder = bowties.folder.path
    func kind(_ name: String) throws -> FileAttributeType? {
      try FileManager.default.attributesOfItem(atPath: "\(folder)/\(name)")[.type]
        as? FileAttributeType
    }
    // A character device of its own, the null device's numbers (1, 3), where root may make
    // one: never /dev/null itself, which a broken build would replace.
    let device = mknod("\(folder)/null", S_IFCHR | 0o666, (1 << 8) | 3) == 0
    if device {
      for arguments in [
        ["report", "--output", "null"], ["export", "--output", "null", "--force"],
      ] {
        let result = try bowties(arguments)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result)")
        #expect(try kind("null") == .typeCharacterSpecial, "\(arguments)")
      }
      let backup = try bowties("backup", "null", "--force")
      #expect(backup.status == 73, "\(backup)")
      #expect(
        backup.stderr.hasSuffix(
          "null: a backup is a store file, written whole, not to a terminal, a pipe or a device\n"))
      #expect(try kind("null") == .typeCharacterSpecial)
    }
    try Data("before\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/real.txt"))
    try FileManager.default.createSymbolicLink(
      atPath: "\(folder)/link.txt", withDestinationPath: "real.txt")
    #expect(try bowties("report", "--output", "link.txt").status == 73)
    #expect(try bowties("report", "--output", "link.txt", "--force").status == 0)
    #expect(try kind("link.txt") == .typeSymbolicLink)
    let written = try String(contentsOfFile: "\(folder)/real.txt", encoding: .utf8)
    #expect(written.hasPrefix("Bow-tie report as of "))
    try FileManager.default.createSymbolicLink(
      atPath: "\(folder)/dangling.txt", withDestinationPath: "nothing.txt")
    try FileManager.default.createDirectory(
      atPath: "\(folder)/reports", withIntermediateDirectories: false)
    let cases: [([String], String)] = [
      (
        ["report", "--output", "dangling.txt", "--force"],
        "it is a link to nothing.txt, which is not there"
      ),
      (["report", "--output", "reports", "--force"], "it is a folder"),
      (["backup", "reports"], "it is a folder; name the backup file, in it or elsewhere"),
      (
        ["backup", "reports", "--force"], "it is a folder; name the backup file, in it or elsewhere"
      ),
      (
        ["backup", "link.txt"],
        "it is a link; a backup is written as a file of its own, not through a link"
      ),
    ]
    for (arguments, message) in cases {
      let result = try bowties(arguments)
      #expect(result.status == 73, "\(arguments): \(result)")
      #expect(result.stderr.hasSuffix(": \(message)\n"), "\(arguments): \(result)")
    }
    #expect(!FileManager.default.fileExists(atPath: "\(folder)/nothing.txt"))
    #expect(try kind("dangling.txt") == .typeSymbolicLink && kind("reports") == .typeDirectory)
    #expect(try String(contentsOfFile: "\(folder)/real.txt", encoding: .utf8) == written)
  }

  @Test("photo --output - refuses a terminal, and writes the bytes into a pipe")
  func photoToTerminal() throws {
    let bowties = BowtiesSandbox()
    let piped = try bowties("photo", "R", "--output", "-")
    #expect(piped.status == 0)
    // The PNG signature, its first byte not UTF-8.
    #expect(piped.stdout.hasPrefix("\u{FFFD}PNG\r\n"))
    let onTerminal = try bowties.onTerminal("photo", "R", "--output", "-")
    #expect(onTerminal.status == 64, "\(onTerminal)")
    #expect(
      onTerminal.stdout
        == "bowties: not writing a photo to a terminal: redirect stdout, or give --output FILE\r\n")
  }

  @Test("export --binary refuses a terminal as photo does; XML, a pipe or --output are written")
  func binaryExportToTerminal() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let onTerminal = try bowties.onTerminal("export", "--binary")
    #expect(onTerminal.status == 64, "\(onTerminal)")
    #expect(
      onTerminal.stdout
        == "bowties: not writing a binary plist to a terminal: redirect stdout, or give "
        + "--output FILE\r\n")
    let text = try bowties.onTerminal("export")
    #expect(text.status == 0 && text.stdout.hasPrefix("<?xml"), "\(text.stdout.prefix(80))")
    #expect(try bowties.onTerminal("export", "--binary", "--output", "ties.plist").status == 0)
    let piped = try bowties("export", "--binary")
    #expect(piped.status == 0 && piped.stdout.hasPrefix("bplist00"))
  }

  @Test("--image always draws in color on a terminal even with NO_COLOR: the flag wins")
  func imageFlagOverridesNoColor() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let environment = ["NO_COLOR": "1", "COLORTERM": "truecolor", "COLUMNS": "100"]
    let always = try bowties.onTerminal("show", "R", "--image", "always", environment: environment)
    #expect(always.status == 0)
    #expect(always.stdout.contains("\u{1B}[38;2;") && always.stdout.contains("▀"))
    let auto = try bowties.onTerminal("show", "R", environment: environment)
    #expect(!auto.stdout.contains("\u{1B}["))
    let help = try bowties("show", "--help", withStore: false).stdout
    let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(words.contains("even with NO_COLOR: the flag wins"))
  }

  @Test("no line of text output ends in a space")
  func noTrailingSpaces() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    // A tie without a color, a price or a link shows "none" for each.
    #expect(try bowties("add", "--name", "Plain Bow Tie").status == 0)
    try bowties("wear", "R", "--date", "2026-11-01")
    try bowties("rate", "O", "2")
    var outputs: [String] = []
    for arguments in [
      ["show", "R"], ["show", "plain"], ["list"], ["list", "--favorites"], ["history"],
      ["history", "R"], ["suggest"], ["report", "--as-of", "2026-11-21"],
      ["report", "--all", "--as-of", "2026-11-21"], ["doctor"], ["wear", "plain"],
    ] {
      let result = try bowties(arguments)
      #expect(result.status == 0, "\(arguments): \(result)")
      #expect(!result.stdout.isEmpty, "\(arguments)")
      outputs.append(result.stdout)
      for line in result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      where line.hasSuffix(" ") || line.hasSuffix("\t") {
        Issue.record("\(arguments): '\(line)'")
      }
    }
    #expect(outputs[1].contains("  Color       none\n"))
  }

  @Test("wear refuses a day after today with the bad-value exit code; today and before work")
  func wearInFuture() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let day = DateFormatter()
    day.dateFormat = "yyyy-MM-dd"
    day.timeZone = TimeZone(identifier: "UTC")
    let tomorrow = day.string(from: Date().addingTimeInterval(86_400))
    for date in ["2030-01-01", tomorrow, tomorrow + "T00:00:00Z"] {
      let result = try bowties("wear", "I", "--date", date)
      #expect(result.status == 65, "\(date): \(result)")
      #expect(result.stderr == "bowties: '\(date)' is after today: a wear is today or earlier\n")
    }
    #expect(try bowties.sqlite("SELECT timesWorn FROM bowTie WHERE searchKey = 'I'") == "0\n")
    for date in ["today", "now", day.string(from: Date()), "yesterday", "2026-01-01", "-3d"] {
      #expect(try bowties("wear", "I", "--date", date).status == 0, "\(date)")
    }
    #expect(try bowties.sqlite("SELECT timesWorn FROM bowTie WHERE searchKey = 'I'") == "6\n")
  }

  @Test("the store is found from BOWTIES_STORE, then XDG_DATA_HOME, then HOME")
  func storeLocation() throws {
    let bowties = BowtiesSandbox()
    let viaEnvironment = bowties.folder.appendingPathComponent("env/ties.sqlite").path
    #expect(
      try bowties("show", "R", environment: ["BOWTIES_STORE": viaEnvironment], withStore: false)
        .status == 0)
    #expect(FileManager.default.fileExists(atPath: viaEnvironment))
    let xdg = bowties.folder.appendingPathComponent("xdg")
    #expect(
      try bowties("list", environment: ["XDG_DATA_HOME": xdg.path], withStore: false).status == 0)
    #expect(
      FileManager.default.fileExists(
        atPath: xdg.appendingPathComponent("bowties/BowTies.sqlite").path))
    let mode = try FileManager.default.attributesOfItem(
      atPath: xdg.appendingPathComponent("bowties").path)
    #expect(mode[.posixPermissions] as? Int == 0o700)
    #expect(try bowties("list", withStore: false).status == 0)
    let home = bowties.folder.appendingPathComponent(".local/share/bowties/BowTies.sqlite")
    #expect(FileManager.default.fileExists(atPath: home.path))
  }

  @Test("a lone copy of the binary still seeds the sample ties with their photos")
  func selfContained() throws {
    let bowties = BowtiesSandbox()
    let lone = try bowties.placeCopy(at: "elsewhere/bowties")
    let result = try bowties("list", "--json", executable: lone)
    #expect(result.status == 0)
    let ties = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]]
    #expect(ties?.count == 7)
    #expect(ties?.allSatisfy { ($0["photoBytes"] as? Int ?? 0) > 1000 } == true)
  }
}
