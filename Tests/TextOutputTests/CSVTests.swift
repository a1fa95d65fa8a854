import Testing
import TextOutput

@Suite("CSV fields")
struct CSVTests {
  @Test(
    "text a spreadsheet would take for a formula starts with an apostrophe; other text is as it is",
    arguments: [
      ("=HYPERLINK(\"http://x\",\"y\")", #""'=HYPERLINK(""http://x"",""y"")""#),
      ("=1+1", "'=1+1"), ("+1 Bow Tie", "'+1 Bow Tie"), ("-ish", "'-ish"),
      ("@SUM(A1)", "'@SUM(A1)"),
      ("\tTab", "'\tTab"), ("\r=1", "\"'\r=1\""), ("Red Bow Tie", "Red Bow Tie"),
      ("Bow = Tie", "Bow = Tie"), (" =1", " =1"), ("", ""), ("a,b", "\"a,b\""),
    ])
  func textField(text: String, written: String) {
    #expect(CSV.textField(text) == written)
  }

  @Test("values bowties writes itself are left as they are: a negative number stays one")
  func values() {
    #expect(CSV.field("-3") == "-3")
    #expect(CSV.field("2026-11-27T08:00:00Z") == "2026-11-27T08:00:00Z")
  }
}
