import Foundation
import Testing

@Suite("add, edit, remove, photo")
struct InventoryCommandTests {
  private func png(_ bowtie: Bowtie, _ name: String, bytes: Int) throws -> String {
    let data = testPNG(bytes: bytes)
    let file = bowtie.folder.appendingPathComponent(name)
    try data.write(to: file)
    return file.path
  }

  @Test("add prints the new tie, with a free key, a CSS color and a price")
  func add() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("list")
    let result = try bowtie(
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
    let json = try bowtie("add", "--name", "Tartan", "--color", "#abc", "--price", "5", "--json")
      .stdout
    #expect(json.contains("\"searchKey\" : \"T2\"") && json.contains("\"price\" : \"5\""))
    #expect(json.contains("\"currency\" : \"USD\""))
    // A price typed in the C locale is in US dollars, and stays so under another locale.
    #expect(
      try bowtie("show", "T", environment: ["LANG": "de_DE.UTF-8"]).stdout.contains(
        "Price       19,99 $\n"))
  }

  @Test(
    "add refuses bad values with exit 65 and adds nothing",
    arguments: [
      ["--color", "blurple"], ["--rating", "6"], ["--price", "4,50"], ["--price", "-1"],
      ["--url", "not a url"], ["--key", "R"], ["--key", "two words"], ["--rating", "-1"],
    ])
  func addRefusals(extra: [String]) throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("list")
    let result = try bowtie.run(
      Bowtie.binary.path, ["add", "--name", "X", "--store", bowtie.store] + extra)
    #expect(result.status == 65, "\(extra): \(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(try bowtie.sqlite("SELECT count(*) FROM bowTie") == "7\n")
  }

  @Test("a photo that is missing or not a PNG or JPEG is refused: an unusable input file, 66")
  func badPhotos() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    #expect(try bowtie("add", "--name", "X", "--photo", "nope.png").status == 66)
    try Data("GIF89a".utf8).write(to: bowtie.folder.appendingPathComponent("x.gif"))
    let gif = try bowtie("add", "--name", "X", "--photo", "x.gif")
    #expect(gif.status == 66)
    #expect(
      gif.stderr
        == "bowties: cannot read x.gif: a GIF image, which bowties cannot read (PNG and JPEG only); convert it first: convert x.gif x.png\n"
    )
  }

  @Test("edit changes the named attributes; photo writes the photo back out")
  func editAndPhoto() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    let big = try png(bowtie, "big.png", bytes: 200_000)
    let edited = try bowtie(
      "edit", "R", "--name", "Crimson Bow Tie", "--photo", big, "--price", "30", "--times-worn",
      "12",
      "--last-worn", "2026-11-01")
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(
      edited.stdout.hasPrefix(
        "Crimson Bow Tie\n  Key         R\n  Rating      4/5\n  Times worn  12\n"))
    #expect(edited.stdout.contains("Photo       PNG 1×1, 200.0 KB"))
    let out = bowtie.folder.appendingPathComponent("out.png")
    #expect(try bowtie("photo", "crimson", "--output", out.path).status == 0)
    #expect(try Data(contentsOf: out) == Data(contentsOf: URL(fileURLWithPath: big)))
    #expect(try bowtie("edit", "R", "--no-photo").stdout.contains("Photo       none"))
    let none = try bowtie("photo", "R", "-o", out.path)
    #expect(none.status == 66 && none.stderr == "bowties: Crimson Bow Tie has no photo\n")
    #expect(try bowtie("edit", "R", "--photo", big, "--no-photo").status == 64)
    #expect(try bowtie("undo").stdout == "undid edit of Crimson Bow Tie: back as it was\n")
    #expect(try bowtie("photo", "R", "-o", out.path, "--force").status == 0)
    #expect(try Data(contentsOf: out) == Data(contentsOf: URL(fileURLWithPath: big)))
  }

  @Test("remove needs --yes without a terminal, asks on one, and undo brings a tie back")
  func remove() throws {
    let bowtie = Bowtie()
    defer { bowtie.remove() }
    try bowtie("wear", "V")
    let refused = try bowtie("remove", "V")
    #expect(refused.status == 64 && refused.stderr.contains("add --yes"))
    let command = "'\(Bowtie.binary.path)' remove V O --store '\(bowtie.store)'"
    let declined = try bowtie.run(
      "/usr/bin/script", ["-qec", command, "/dev/null"], stdin: Data("n\n".utf8))
    #expect(declined.stdout.contains("Remove Violet Bow Tie (V), Orange Bow Tie (O)? [y/N]"))
    #expect(try bowtie.sqlite("SELECT count(*) FROM bowTie") == "7\n")
    let accepted = try bowtie.run(
      "/usr/bin/script", ["-qec", command, "/dev/null"], stdin: Data("y\n".utf8))
    #expect(accepted.stdout.contains("removed Violet Bow Tie (V)"))
    #expect(try bowtie.sqlite("SELECT count(*) FROM bowTie") == "5\n")
    #expect(try bowtie("remove", "nosuch", "--yes").status == 1)
    #expect(
      try bowtie("undo").stdout == "undid remove of Orange Bow Tie: it is back, with its wears\n")
    #expect(
      try bowtie("undo").stdout == "undid remove of Violet Bow Tie: it is back, with its wears\n")
    #expect(try bowtie.sqlite("SELECT timesWorn FROM bowTie WHERE searchKey = 'V'") == "2\n")
    // V's seeded last wear and the one above.
    #expect(
      try bowtie.sqlite(
        "SELECT count(*) FROM wearEvent WHERE tieId = (SELECT id FROM bowTie WHERE searchKey = 'V')"
      )
        == "2\n")
  }
}
