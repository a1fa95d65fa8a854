import Foundation
import Testing

@Suite("add, edit, remove, photo")
struct InventoryCommandTests {
  private func png(_ bowties: BowtiesSandbox, _ name: String, bytes: Int) throws -> String {
    let data = testPNG(bytes: bytes)
    let file = bowties.folder.appendingPathComponent(name)
    try data.write(to: file)
    return file.path
  }

  @Test("add prints the new tie, with a free key, a CSS color and a price")
  func add() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let result = try bowties(
      "add", "--name", "Teal Bow Tie", "--color", "teal", "--rating", "4.5", "--price", "19.99",
      "--favorite", "--url", "https://example.com/teal")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        Teal Bow Tie
          Key         T
          Rating      4.5/5
          Times worn  0
          Last worn   never
          Favorite    yes
          URL         https://example.com/teal
          Price       $ 19.99
          Color       #008080
          Photo       none

        """)
    let json = try bowties("add", "--name", "Tartan", "--color", "#abc", "--price", "5", "--json")
      .stdout
    #expect(json.contains("\"searchKey\" : \"T2\"") && json.contains("\"price\" : \"5\""))
    #expect(json.contains("\"currency\" : \"USD\""))
    // A price typed in the C locale is in US dollars, and stays so under another locale.
    #expect(
      try bowties("show", "T", environment: ["LANG": "de_DE.UTF-8"]).stdout.contains(
        "Price       19,99 $\n"))
  }

  @Test(
    "add refuses bad values with exit 65 and adds nothing",
    arguments: [
      ["--color", "blurple"], ["--rating", "6"], ["--price", "4,50"], ["--price", "-1"],
      ["--url", "not a url"], ["--key", "R"], ["--key", "two words"], ["--rating", "-1"],
    ])
  func addRefusals(extra: [String]) throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let result = try bowties.run(
      BowtiesSandbox.binary.path, ["add", "--name", "X", "--store", bowties.store] + extra)
    #expect(result.status == 65, "\(extra): \(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(try bowties.sqlite("SELECT count(*) FROM bowTie") == "7\n")
  }

  @Test("a photo that is missing or not a PNG or JPEG is refused: an unusable input file, 66")
  func badPhotos() throws {
    let bowties = BowtiesSandbox()
    #expect(try bowties("add", "--name", "X", "--photo", "nope.png").status == 66)
    try Data("GIF89a".utf8).write(to: bowties.folder.appendingPathComponent("x.gif"))
    let gif = try bowties("add", "--name", "X", "--photo", "x.gif")
    #expect(gif.status == 66)
    #expect(
      gif.stderr
        == "bowties: cannot read x.gif: a GIF image, which bowties cannot read (PNG and JPEG only); convert it first: convert x.gif x.png\n"
    )
  }

  @Test("--photo - reads the photo from standard input, never from a terminal")
  func photoFromStandardInput() throws {
    let bowties = BowtiesSandbox()
    let bytes = try Data(contentsOf: Fixtures.photo("phone.jpg"))
    let back = bowties.folder.appendingPathComponent("back.jpg")
    let stored = { () throws -> Data in
      #expect(try bowties("photo", "P", "--output", back.path, "--force").status == 0)
      return try Data(contentsOf: back)
    }
    let added = try bowties("add", "--name", "Piped", "--key", "P", "--photo", "-", stdin: bytes)
    #expect(added.status == 0, "\(added)")
    #expect(try stored() == bytes)
    let notPhoto = try bowties("edit", "P", "--photo", "-", stdin: Data("hello\n".utf8))
    #expect(notPhoto.status == 66, "\(notPhoto)")
    #expect(notPhoto.stderr.hasPrefix("bowties: cannot read standard input: "), "\(notPhoto)")
    let closed = try bowties.run(
      "/bin/bash",
      ["-c", #""$0" edit P --photo - --store "$1" <&-"#, BowtiesSandbox.binary.path, bowties.store])
    #expect(closed.status == 66, "\(closed)")
    #expect(closed.stderr == "bowties: cannot read standard input: bad file descriptor\n")
    let terminal = try bowties.onTerminal("edit", "P", "--photo", "-")
    #expect(terminal.status == 64, "\(terminal)")
    #expect(
      terminal.stdout
        == "bowties: not reading a photo from a terminal: redirect stdin, or give a file\r\n")
    #expect(try stored() == bytes)
  }

  @Test("edit with nothing to change is refused (64); one that changes nothing leaves no undo")
  func editThatChangesNothing() throws {
    let bowties = BowtiesSandbox()
    try bowties("favorite", "I")
    let bare = try bowties("edit", "R")
    #expect(bare.status == 64, "\(bare)")
    #expect(bare.stderr.hasPrefix("bowties: nothing to change: give --name, --key, "), "\(bare)")
    let same = try bowties("edit", "R", "--name", "Red Bow Tie", "--rating", "4")
    #expect(same.status == 0, "\(same)")
    #expect(same.stdout == (try bowties("show", "R").stdout))
    // The undo takes back the favorite, the last change made.
    #expect(
      try bowties("undo").stdout == "undid favorite of Indigo Bow Tie: not a favorite again\n")
    #expect(try bowties("undo").stdout == "nothing to undo\n")
  }

  @Test("edit --last-worn of a tie never worn is refused (65), unless --times-worn comes too")
  func lastWornOfATieNeverWorn() throws {
    let bowties = BowtiesSandbox()
    try bowties("list")
    let refused = try bowties("edit", "I", "--last-worn", "2026-01-01")
    #expect(refused.status == 65, "\(refused)")
    #expect(
      refused.stderr
        == "bowties: Indigo Bow Tie: lastWorn is given for a tie never worn (timesWorn 0): "
        + "record a wear on that day (bowties wear TIE --date DATE), or give --times-worn too\n")
    #expect(try bowties("list", "--never-worn").stdout.contains("Indigo"))
    #expect(try bowties("undo").stdout == "nothing to undo\n")
    let both = try bowties("edit", "I", "--last-worn", "2026-01-01", "--times-worn", "1")
    #expect(both.status == 0, "\(both)")
    #expect(both.stdout.contains("Last worn   Jan 1, 2026\n"), "\(both)")
  }

  @Test("edit changes the named attributes; photo writes the photo back out")
  func editAndPhoto() throws {
    let bowties = BowtiesSandbox()
    let big = try png(bowties, "big.png", bytes: 200_000)
    let edited = try bowties(
      "edit", "R", "--name", "Crimson Bow Tie", "--photo", big, "--price", "30", "--times-worn",
      "12",
      "--last-worn", "2026-11-01")
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(
      edited.stdout.hasPrefix(
        "Crimson Bow Tie\n  Key         R\n  Rating      4/5\n  Times worn  12\n"))
    #expect(edited.stdout.contains("Photo       PNG 1×1, 200.0 KB"))
    let out = bowties.folder.appendingPathComponent("out.png")
    #expect(try bowties("photo", "crimson", "--output", out.path).status == 0)
    #expect(try Data(contentsOf: out) == Data(contentsOf: URL(fileURLWithPath: big)))
    #expect(try bowties("edit", "R", "--no-photo").stdout.contains("Photo       none"))
    let none = try bowties("photo", "R", "-o", out.path)
    #expect(none.status == 66 && none.stderr == "bowties: Crimson Bow Tie has no photo\n")
    #expect(try bowties("edit", "R", "--photo", big, "--no-photo").status == 64)
    #expect(try bowties("undo").stdout == "undid edit of Crimson Bow Tie: back as it was\n")
    #expect(try bowties("photo", "R", "-o", out.path, "--force").status == 0)
    #expect(try Data(contentsOf: out) == Data(contentsOf: URL(fileURLWithPath: big)))
  }

  @Test("remove needs --yes without a terminal, asks on one, and undo brings a tie back")
  func remove() throws {
    let bowties = BowtiesSandbox()
    try bowties("wear", "V")
    let refused = try bowties("remove", "V")
    #expect(refused.status == 64 && refused.stderr.contains("add --yes"))
    let declined = try bowties.onTerminal("remove", "V", "O", stdin: Data("n\n".utf8))
    #expect(declined.stdout.contains("Remove Violet Bow Tie (V), Orange Bow Tie (O)? [y/N]"))
    #expect(try bowties.sqlite("SELECT count(*) FROM bowTie") == "7\n")
    let accepted = try bowties.onTerminal("remove", "V", "O", stdin: Data("y\n".utf8))
    #expect(accepted.stdout.contains("removed Violet Bow Tie (V)"))
    #expect(try bowties.sqlite("SELECT count(*) FROM bowTie") == "5\n")
    #expect(try bowties("remove", "nosuch", "--yes").status == 1)
    #expect(
      try bowties("undo").stdout == "undid remove of Orange Bow Tie: it is back, with its wears\n")
    #expect(
      try bowties("undo").stdout == "undid remove of Violet Bow Tie: it is back, with its wears\n")
    #expect(try bowties.sqlite("SELECT timesWorn FROM bowTie WHERE searchKey = 'V'") == "2\n")
    // V's seeded last wear and the one above.
    #expect(
      try bowties.sqlite(
        "SELECT count(*) FROM wearEvent WHERE tieId = (SELECT id FROM bowTie WHERE searchKey = 'V')"
      )
        == "2\n")
  }
}
