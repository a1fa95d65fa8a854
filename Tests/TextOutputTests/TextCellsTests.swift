import Testing
import TextOutput

@Suite("Cells on a terminal")
struct TextCellsTests {
  @Test("wide characters take two cells, marks and format characters none, escapes none")
  func widths() {
    #expect(TextCells.width("\u{1B}[1mRed\u{1B}[0m") == 3)
    #expect(TextCells.width("蝶ネクタイ") == 10)
    #expect(TextCells.width("Party 🎉") == 8)
    #expect(TextCells.width("Cafe\u{301}") == 4)
    #expect(TextCells.width("zero\u{200B}width") == 9)
  }

  @Test("text is cut at a width, attributes kept whole; padded; its end kept")
  func cutting() {
    #expect(TextCells.clip("\u{1B}[7mabcdef\u{1B}[0m", to: 3) == ("\u{1B}[7mabc", 3))
    #expect(TextCells.truncate("Bow Tie 0001234", to: 8) == "Bow Tie…")
    #expect(TextCells.pad("ab", to: 4) == "ab  ")
    #expect(TextCells.pad("蝶ネ", to: 6) == "蝶ネ  ")
    #expect(TextCells.tail("Find a tie: indigo", to: 6) == "indigo")
    #expect(TextCells.tail("a 蝶ネクタイ", to: 5) == "タイ")
    #expect(TextCells.tail("abc", to: 10) == "abc")
    #expect(TextCells.tail("abc", to: 0) == "")
  }
}
