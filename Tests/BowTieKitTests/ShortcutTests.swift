import Foundation
import SeededRandom
import Testing

@testable import BowTieKit
@testable import BowTieModel
@testable import PropertyLists

/// Each shortcut that seeding at scale relies on gives exactly what the general code does.
@Suite("Shortcuts")
struct ShortcutTests {
  @Test("the color archive layouts write what the encoder writes, read what the decoder reads")
  func colorLayouts() throws {
    let transformer = ColorAttributeTransformer()
    let layouts = ColorArchiveLayouts.shared
    var random = SplitMix64(seed: 0xC010)
    var colors = (0...255).flatMap { value -> [TieColor] in
      let byte = UInt8(value)
      return [
        TieColor(red8: byte, green8: 0, blue8: 0), TieColor(red8: 0, green8: byte, blue8: 0),
        TieColor(red8: 0, green8: 0, blue8: byte), TieColor(red8: byte, green8: byte, blue8: byte),
        TieColor(red8: 9, green8: 8, blue8: 7, alpha8: byte),
      ]
    }
    colors += (0..<2_000).map { _ in
      TieColor(
        red8: UInt8(truncatingIfNeeded: random.next()),
        green8: UInt8(truncatingIfNeeded: random.next()),
        blue8: UInt8(truncatingIfNeeded: random.next()))
    }
    // Components as UIKit and AppKit archives give them: any double, extended range.
    colors += (0..<1_000).map { _ in
      func component() -> Double {
        switch random.next(below: 4) {
        case 0: Double(Float(bitPattern: UInt32(truncatingIfNeeded: random.next()) & 0x3FFF_FFFF))
        case 1: Double(random.next(below: 1 << 20)) / Double(1 << 20) * 1.1 - 0.05
        case 2: Double(random.next(below: 256)) / 255
        default: Double(bitPattern: 0x3FE0_0000_0000_0000 | random.next() >> 12)
        }
      }
      return TieColor(red: component(), green: component(), blue: component(), alpha: component())
    }
    for color in colors where color.isFinite {
      let fast = try #require(layouts.archive(color, transformer: transformer))
      #expect(
        fast == [UInt8](try transformer.archivedData(from: UIColorArchive(color))), "\(color)")
      // The full decoder reads the laid-out archive as that color, and so does its layout.
      let general = try ColorAttributeTransformer.color(
        of: transformer.unarchivedObject(from: Data(fast)))
      #expect(general == color)
      #expect(layouts.color(in: Data(fast)) == color)
    }
    // Bytes no layout wrote are not read by one, or read as the full decoder reads them:
    // every byte of a sample changed, and a byte cut.
    for color in [colors[300], TieColor(red: 0.5, green: 0.25, blue: 1, alpha: 0.75)] {
      let sample = try #require(layouts.archive(color, transformer: transformer))
      #expect(layouts.color(in: Data(sample.dropLast())) == nil)
      for offset in sample.indices {
        var changed = sample
        changed[offset] ^= 0x01
        guard let read = layouts.color(in: Data(changed)) else { continue }
        let general = try? ColorAttributeTransformer.color(
          of: transformer.unarchivedObject(from: Data(changed)))
        #expect(read == general, "byte \(offset)")
      }
    }
  }

  @Test("an 8-bit component's NSRGB text is the C library's %.3g, for each of the 256")
  func eightBitText() {
    for value in 0...255 {
      let expected = String(format: "%.3g", Double(value) / 255)
      #expect(String(decoding: ColorText.eightBitNumber(value), as: UTF8.self) == expected)
      #expect(ColorText.formatted(Double(value) / 255) == Array(expected.utf8))
      #expect(ColorText.number(Double(value) / 255) == Array(expected.utf8))
    }
  }

  @Test("NSRGB's numbers are checked for the form %g writes, as the C library would read them")
  func decimalNumberForm() {
    var random = SplitMix64(seed: 0xD3C1)
    for _ in 0..<2_000 {
      let value = Double(bitPattern: random.next())
      guard value.isFinite else { continue }
      for format in ["%.3g", "%g", "%.17g"] {
        let word = Array(String(format: format, value).utf8)
        #expect(ColorText.isDecimalNumber(word[...]), "\(format) of \(value)")
      }
    }
    for accepted in ["0", "1", "0.5", ".5", "5.", "-0.25", "1e-05", "2.5E+10"] {
      #expect(ColorText.isDecimalNumber(Array(accepted.utf8)[...]), "\(accepted)")
    }
    for refused in [
      "", "-", ".", "+1", "1..2", "1.2.3", "1e", "1e+", "e5", "0x1p3", "inf", "nan", "1,5",
    ] {
      #expect(!ColorText.isDecimalNumber(Array(refused.utf8)[...]), "\(refused)")
    }
  }

  @Test("TieColor archives of before are read by their layout as by the full decoder")
  func legacyColorLayout() throws {
    let transformer = ColorAttributeTransformer()
    let classes = transformer.classTable
    for value in 0...255 {
      let byte = UInt8(value)
      let color = TieColor(red8: byte, green8: 255 - byte, blue8: byte / 3)
      let old = Data(try KeyedArchive.archive(TieColorArchive(color), classes: classes))
      #expect(ColorArchiveLayouts.shared.legacyColor(in: old) == color)
      #expect(try transformer.color(from: old) == color)
    }
    // Out of range, or not integers: left to the full decoder, which refuses them.
    let sample = Data(
      try KeyedArchive.archive(
        TieColorArchive(TieColor(red8: 1, green8: 2, blue8: 3)), classes: classes))
    for offset in sample.indices {
      var changed = sample
      changed[offset] ^= 0x10
      guard let read = ColorArchiveLayouts.shared.legacyColor(in: changed) else { continue }
      #expect(read == (try? transformer.color(from: changed)), "byte \(offset)")
    }
  }

  @Test("canonical forms of ASCII text match the general folding")
  func canonicalASCII() {
    var random = SplitMix64(seed: 0xA5C11)
    let alphabet = Array("abcXYZ Q09 -_.!~ ")
    for _ in 0..<2_000 {
      let text = String(
        (0..<random.next(below: 24)).map { _ in alphabet[random.next(below: alphabet.count)] })
      let general = text.folding(
        options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil
      )
      .split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(BowTie.canonicalize(text) == general, "'\(text)'")
    }
  }

  @Test("name and key checks of ASCII text agree with the general checks")
  func asciiValidation() {
    var random = SplitMix64(seed: 0x7A11D)
    let alphabet = Array("ab Z9 -\t~") + ["\u{7F}", "\u{1}", "é"]
    for _ in 0..<3_000 {
      let length = random.next(below: 3) == 0 ? random.next(below: 240) : random.next(below: 20)
      let text = String((0..<length).map { _ in alphabet[random.next(below: alphabet.count)] })
      #expect(BowTie.nameProblem(text) == BowTie.generalNameProblem(text), "'\(text)'")
      #expect(BowTie.searchKeyProblem(text) == BowTie.generalSearchKeyProblem(text), "'\(text)'")
    }
  }

  @Test("UUID text is Foundation's, both ways; damaged ids are refused, as Linux's sscanf did not")
  func uuidText() {
    var random = SplitMix64(seed: 0x0001D)
    for _ in 0..<2_000 {
      let id = UUID()
      #expect(id.text == id.uuidString)
      #expect(UUID(text: id.uuidString) == id)
      #expect(UUID(text: id.uuidString.lowercased()) == id)
      // Damaged forms: a character replaced, removed or added.
      var characters = Array(id.uuidString)
      let position = random.next(below: characters.count)
      switch random.next(below: 3) {
      case 0: characters[position] = Array("-gG0 xZ")[random.next(below: 7)]
      case 1: characters.remove(at: position)
      default: characters.insert("A", at: position)
      }
      let damaged = String(characters)
      let hex = "[0-9A-Fa-f]"
      let canonical = try! Regex("\(hex){8}-\(hex){4}-\(hex){4}-\(hex){4}-\(hex){12}")
      if damaged.wholeMatch(of: canonical) != nil {
        #expect(UUID(text: damaged) == UUID(uuidString: damaged), "\(damaged)")
      } else {
        #expect(UUID(text: damaged) == nil, "\(damaged)")
      }
    }
    #expect(UUID(text: "") == nil && UUID(text: "E621E1F8C36C495A93FC0C247A3E6E5F0000") == nil)
  }

  @Test("stored dates match the C library's formatting, milliseconds included")
  func storageDates() throws {
    var random = SplitMix64(seed: 0xDA7E)
    for _ in 0..<2_000 {
      let seconds =
        Double(random.next(below: 253_402_300_799)) + Double(random.next(below: 1000)) / 1000
      let date = Date(timeIntervalSince1970: seconds)
      var time = time_t(seconds.rounded(.down))
      var parts = tm()
      gmtime_r(&time, &parts)
      let text = StorageDate.format(date)
      #expect(
        text.hasPrefix(
          String(
            format: "%04d-%02d-%02dT%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min))), "\(text)")
      #expect(abs(try StorageDate.parse(text).timeIntervalSince(date)) < 0.0006, "\(text)")
    }
    #expect(
      StorageDate.format(Date(timeIntervalSince1970: 1_795_248_000.9996))
        == "2026-11-21T08:00:01.000Z")
  }

  @Test("a lastWorn the store cannot write is refused")
  func lastWornRange() {
    let tie = BowTie(
      name: "Old", searchKey: "O", lastWorn: Date(timeIntervalSince1970: -70_000_000_000))
    #expect(tie.validationFailure?.attribute == "lastWorn")
  }

  @Test("seeded ids are version 4 UUIDs, distinct across buffer refills")
  func randomUUIDs() {
    var ids = RandomUUIDs()
    var seen = Set<UUID>()
    // 1,000 values span four 4 KiB refills.
    for _ in 0..<1_000 {
      let id = ids.next()
      let text = id.text
      #expect(Array(text)[14] == "4", "\(text)")
      #expect("89AB".contains(Array(text)[19]), "\(text)")
      seen.insert(id)
    }
    #expect(seen.count == 1_000)
    // A second generator does not repeat the first one's values.
    var other = RandomUUIDs()
    #expect(!seen.contains(other.next()))
  }
  @Test("a wear and an undo entry read back as appended, with the ids the store gave them")
  func logRecordAppend() throws {
    let store = try makeInMemoryStore()
    try store.seed(SampleData.entries())
    let tie = try store.tie(matching: "R")
    let date = Date(timeIntervalSince1970: 1_790_000_000.25)
    var snapshot = try store.read { connection in
      try #require(try TieSnapshot.take(tie.id, in: connection, withWears: true))
    }
    // An entry that names a photo file fills every undo column.
    snapshot.columns["photoFile"] = .text(String(repeating: "0f", count: 32))
    snapshot.columns["photoData"] = .null
    snapshot.wears = [date]
    let changes: [UndoableChange] = [
      .wear(eventID: 7, wornAt: date, previousLastWorn: nil), .rate(previous: 4, new: 2.5),
      .favorite(previous: true, new: false), .add(name: "Red"), .edit(previous: snapshot),
      .remove(previous: snapshot),
    ]
    try store.write { connection, _ in
      var first = WearEvent(tieID: tie.id, wornAt: date)
      try first.append(to: connection)
      var second = WearEvent(tieID: tie.id, wornAt: date)
      try second.append(to: connection)
      let events = try connection.fetchAll(
        "SELECT id, tieId, wornAt FROM wearEvent ORDER BY id DESC LIMIT 2", WearEvent.init)
      #expect(events == [second, first])
      #expect(try #require(second.id) == (try #require(first.id)) + 1)
      for change in changes {
        var entry = UndoEntry(madeAt: date, madeBy: "ann@host", tieID: tie.id, change: change)
        try entry.append(to: connection)
        let stored = try connection.fetchOne(
          "SELECT \(UndoEntry.Columns.entry), photoFile FROM undoEntry ORDER BY id DESC LIMIT 1")
        #expect(try UndoEntry(row: try #require(stored)) == entry, "\(change)")
        #expect(stored?["photoFile"] == change.photoFile.sqlValue, "\(change)")
      }
    }
  }
  @Test("trimmingSpaces() trims what Foundation's trimmingCharacters(in: .whitespaces) trims")
  func trimmingSpaces() {
    // Every space separator Unicode has, the tab, and look-alikes that are not trimmed.
    let spaces = [
      "\u{20}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{2005}", "\u{200A}", "\u{202F}", "\u{205F}",
      "\u{3000}", "\t",
    ]
    let others = ["\n", "\r", "\u{0B}", "\u{200B}", "\u{FEFF}", "\u{85}", "\u{2028}", "\u{301}"]
    let cores = ["", "R", "Café Bow Tie", "e\u{301}", "a b", "\u{1F454}", "\u{1F1EB}\u{1F1F7}"]
    var texts: [String] = []
    for core in cores {
      for left in [""] + spaces + others {
        for right in [""] + spaces + others {
          texts.append(left + core + right)
          texts.append(left + left + core + right + right)
        }
      }
    }
    // Which scalars count as spaces, over all of Unicode.
    for value in 0...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let text = String(scalar)
      if text.trimmingSpaces().isEmpty != text.trimmingCharacters(in: .whitespaces).isEmpty {
        Issue.record("U+\(String(value, radix: 16)) is trimmed by one and not the other")
      }
    }
    for text in texts {
      #expect(
        text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces),
        "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
      let substring = Substring("x" + text + "x").dropFirst().dropLast()
      #expect(substring.trimmingSpaces() == substring.trimmingCharacters(in: .whitespaces))
    }
  }
}
