import Foundation
import FoundationXML
import Testing

@testable import BowTieKit
@testable import BowTieModel
@testable import BowTieReports

/// The one escaping function of each format, and control characters made visible.
@Suite("Escaping")
struct EscapingTests {
  @Test("HTML: a < or a quote carrying a combining mark is still escaped")
  func htmlCombiningMarks() {
    // "<\u{301}" is one Character: a comparison of whole characters never sees the "<".
    #expect(
      HTMLReport.escape("<\u{301}img src=x onerror=alert(1)>")
        == "&lt;\u{301}img src=x onerror=alert(1)&gt;")
    #expect(HTMLReport.escape("\"\u{301} onmouseover=\"x") == "&quot;\u{301} onmouseover=&quot;x")
    #expect(HTMLReport.escape("'\u{20DD}&\u{301}") == "&#39;\u{20DD}&amp;\u{301}")
    #expect(HTMLReport.escape("\u{FFFE}a\u{FFFF}") == "\u{FFFD}a\u{FFFD}")
  }

  @Test("HTML: hostile text round-trips through element content and a double-quoted attribute")
  func htmlContexts() throws {
    for text in [
      "<\u{301}script>alert(\"\u{301}x\")</\u{301}script>", "\"\u{301} onclick=\"y",
      "'\u{301}&amp;",
      "a & b < c > d \" e ' f",
    ] {
      let escaped = HTMLReport.escape(text)
      #expect(!escaped.unicodeScalars.contains { "<>\"".unicodeScalars.contains($0) })
      let document = "<p title=\"\(escaped)\">\(escaped)</p>"
      let reader = ElementReader()
      let parser = XMLParser(data: Data(document.utf8))
      parser.delegate = reader
      #expect(parser.parse(), "\(document)")
      #expect(reader.elements == ["p"], "\(document)")
      #expect(reader.title == text && reader.text == text, "\(document)")
    }
  }

  @Test("Markdown: punctuation carrying a combining mark is still escaped")
  func markdownCombiningMarks() {
    #expect(MarkdownReport.escape("<\u{301}b>") == "\\<\u{301}b\\>")
    #expect(MarkdownReport.escape("*\u{301}x*|") == "\\*\u{301}x\\*\\|")
    #expect(MarkdownReport.escape("[\u{20DD}](y)") == "\\[\u{20DD}\\](y)")
  }

  @Test("control characters come out as ls -b shows them; other text is unchanged")
  func visibleControls() {
    #expect("Red Bow Tie".withVisibleControlCharacters == "Red Bow Tie")
    #expect("a\u{1B}[2Jb".withVisibleControlCharacters == #"a\033[2Jb"#)
    #expect("\u{9B}31m".withVisibleControlCharacters == #"\302\23331m"#)
    #expect(
      "x\n\t\r\u{07}\u{08}\u{0B}\u{0C}\u{7F}\u{0}".withVisibleControlCharacters
        == #"x\n\t\r\a\b\v\f\177\000"#)
    #expect("C:\\ café ☕ \u{200F}".withVisibleControlCharacters == "C:\\ café ☕ \u{200F}")
    // The bidirectional controls that reorder what follows them, alone and between letters;
    // the scalars around them, and the marks (U+200E, U+200F), stay.
    #expect("Evil \u{202E}eit woB".withVisibleControlCharacters == #"Evil \342\200\256eit woB"#)
    #expect("\u{2066}x\u{2069}".withVisibleControlCharacters == #"\342\201\246x\342\201\251"#)
    for value in Array(0x2027...0x2030) + Array(0x2064...0x206A) + [0x200E] {
      let scalar = Unicode.Scalar(UInt32(value))!
      let reorders = (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
      let octal = String(scalar).utf8.map { "\\" + String($0, radix: 8) }.joined()
      let expected = "a" + (reorders ? octal : String(scalar)) + "b"
      #expect("a\(Character(scalar))b".withVisibleControlCharacters == expected, "\(value)")
    }
    // Every C0 and C1 scalar, and DEL, alone and between letters.
    for value in Array(0x00...0x1F) + Array(0x7F...0x9F) {
      let scalar = Unicode.Scalar(UInt32(value))!
      let visible = "a\(Character(scalar))b".withVisibleControlCharacters
      #expect(!visible.unicodeScalars.contains { $0.properties.generalCategory == .control })
      #expect(visible.hasPrefix("a\\") && visible.hasSuffix("b"), "\(value)")
    }
  }

  /// Found by fuzzing (Fuzz/Corpus/seed-file/crash-xml-escape-combining-mark): our XML writer (the
  /// fix for crash-xml-export-julian-date) first compared Characters, and "<" followed by U+0301 is
  /// one Character, so it went out unescaped.
  @Test("an XML export escapes markup followed by a combining mark")
  func xmlExportEscapes() throws {
    let name = "<\u{301}ct> & >\u{301}"
    let tie = BowTie(name: name, searchKey: "A", rating: 2)
    let document = try Exporter(format: .plist).export(
      [Exporter.Item(tie: tie, photo: nil)], toFolder: false
    ).document
    let reread = try SeedFile.parse(document, source: "export", images: .embedded([:]))
    #expect(reread.first?.tie.name.unicodeScalars.elementsEqual(name.unicodeScalars) == true)
  }
}

/// What an XML parser saw: the elements, the `title` attribute and the text.
private final class ElementReader: NSObject, XMLParserDelegate {
  var elements: [String] = []
  var title: String?
  var text = ""

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
  ) {
    elements.append(elementName)
    title = attributeDict["title"]
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
}
