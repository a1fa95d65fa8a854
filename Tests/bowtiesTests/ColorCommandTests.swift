import Foundation
import PostgresTestSupport
import Testing

/// Colors as a user meets them: `#RRGGBBAA`, `--json`'s `alpha`, the 8-bit values of the
/// colors UIKit and AppKit archive, and the forms bowties refuses, on both engines.
@Suite struct ColorCommandTests {
  static func archive(_ name: String) -> URL {
    Fixtures.folder.appendingPathComponent("ColorArchives/\(name).bplist")
  }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test("#RRGGBBAA: the alpha in --json only when not opaque, in the hex, and through export")
  func translucentColor() throws {
    let bowties = BowtiesSandbox()
    let added = try bowties(
      "add", "--name", "Glass", "--key", "GL", "--rating", "3", "--color", "#EF302480", "--json")
    #expect(added.status == 0, "\(added.stderr)")
    let color = try #require(try Self.json(added.stdout)["tintColor"] as? [String: Any])
    #expect(color["red"] as? Int == 239 && color["green"] as? Int == 48)
    #expect(color["blue"] as? Int == 36)
    #expect(color["alpha"] as? Double == 0.502)
    #expect(try bowties("show", "GL").stdout.contains("#EF302480"))
    // An opaque color has no alpha.
    let red = try bowties("show", "R", "--json").stdout
    #expect(
      red.contains(
        "\"tintColor\" : {\n    \"blue\" : 36,\n    \"green\" : 48,\n    \"red\" : 239\n  }"))
    let opaque = try bowties("edit", "GL", "--color", "#EF3024FF", "--json").stdout
    #expect(!opaque.contains("alpha"))
    #expect(try bowties("edit", "GL", "--color", "#EF302401").status == 0)
    // Exported, the alpha is an integer 0–255; seeded back, it is the same color.
    let exported = try bowties("export", "--format", "json", "--output", "-")
    #expect(exported.stdout.contains("\"alpha\" : 1"))
    let other = BowtiesSandbox()
    let seeded = try other("seed", "-", "--format", "json", stdin: Data(exported.stdout.utf8))
    #expect(seeded.status == 0, "\(seeded.stderr)")
    #expect(try other("show", "GL").stdout.contains("#EF302401"))
    // Not a color.
    for bad in ["#EF30248", "#EF3024801", "#GF302480"] {
      let refused = try bowties("edit", "GL", "--color", bad)
      #expect(refused.status == 65, "\(bad)")
      #expect(refused.stderr.contains("#RRGGBBAA"), "\(bad)")
    }
  }

  /// The colors of Tests/Fixtures/ColorArchives put in the store as another tool would,
  /// and what each command says of them.
  static let stored = [
    "O": "uicolor-float32-green", "Y": "real/terminal-nscolor-custom-space",
    "G": "uicolor-system-red", "B": "uicolor-dynamic", "I": "nscolor-catalog",
    "V": "real/uikit-system-red-damaged",
  ]

  static func checkOutputs(_ run: ([String]) throws -> BowtiesSandbox.Result) throws {
    // UIKit's float32 green of 0.34117645 is 87; AppKit's sRGB components win over NSRGB;
    // the extended-range system red is 255.
    for (key, hex) in [("O", "#005700"), ("Y", "#073642"), ("G", "#FF3A30")] {
      let shown = try run(["show", key])
      #expect(shown.status == 0 && shown.stdout.contains(hex), "\(key): \(shown.stdout)")
      #expect(shown.stderr.isEmpty, "\(key): \(shown.stderr)")
    }
    let green = try #require(
      try json(run(["show", "O", "--json"]).stdout)["tintColor"] as? [String: Any])
    #expect(green["green"] as? Int == 87 && green["alpha"] == nil)
    // Refused: unreadable, with the reason, never a crash.
    for (key, reason) in [
      ("B", "it is a dynamic color (UIDynamicCatalogBundleIdentifier)"),
      ("I", "it is a catalog color (System controlAccentColor)"),
      ("V", "key \"UIGreen\" is missing"),
    ] {
      let shown = try run(["show", key])
      #expect(shown.status == 0, "\(key): \(shown.stderr)")
      #expect(shown.stdout.contains("unreadable"), "\(key): \(shown.stdout)")
      #expect(shown.stderr.contains(reason), "\(key): \(shown.stderr)")
      let object = try json(run(["show", key, "--json"]).stdout)
      #expect(object["tintColor"] is NSNull && object["tintColorUnreadable"] as? Bool == true)
    }
    let listed = try run(["list"])
    #expect(listed.status == 0 && listed.stdout.components(separatedBy: "unreadable").count == 4)
    // doctor names each, with its reason and what to do.
    let doctor = try run(["doctor"])
    #expect(doctor.status == 65)
    for reason in ["dynamic color", "catalog color", "key \"UIGreen\" is missing"] {
      #expect(doctor.stdout.contains(reason) || doctor.stderr.contains(reason), "\(doctor)")
    }
    #expect(doctor.stdout.contains("edit --color") || doctor.stderr.contains("edit --color"))
    // A new color replaces a refused one.
    #expect(try run(["edit", "B", "--color", "teal"]).status == 0)
    #expect(try run(["show", "B"]).stdout.contains("#008080"))
  }

  @Test("UIKit's and AppKit's colors show in 8 bits; refused forms show as unreadable, with why")
  func archivesOfAppleFrameworks() throws {
    let bowties = BowtiesSandbox()
    #expect(try bowties("list").status == 0)
    for (key, name) in Self.stored {
      try bowties.sqlite(
        "UPDATE bowTie SET tintColor = readfile('\(Self.archive(name).path)') WHERE searchKey = '\(key)'"
      )
    }
    try Self.checkOutputs {
      try bowties.run(BowtiesSandbox.binary.path, $0 + ["--store", bowties.store])
    }
  }

  @Test(
    "on PostgreSQL too",
    .enabled(
      if: PostgresTestServer.shared != nil, Comment(rawValue: PostgresTestServer.unavailableReason))
  )
  func archivesOfAppleFrameworksOnPostgreSQL() throws {
    let server = try #require(PostgresTestServer.shared)
    let database = try server.makeDatabase()
    let bowties = BowtiesSandbox()
    #expect(try bowties(["list"], store: database.uri).status == 0)
    var sql = ""
    for (key, name) in Self.stored {
      let hex = try Data(contentsOf: Self.archive(name)).map { String(format: "%02x", $0) }.joined()
      sql += "UPDATE bowTie SET tintColor = '\\x\(hex)' WHERE searchKey = '\(key)';"
    }
    _ = try server.psql(
      sql, user: database.role, password: database.password, database: database.role)
    try Self.checkOutputs { try bowties($0, store: database.uri) }
  }
}
