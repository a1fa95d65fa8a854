import ArgumentParser
import BowTieKit
import BowTieModel

extension Bowties {
  struct Show: StoreCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Show one tie: rating, wears, favorite, link and color, beside its photo.",
      discussion: """
        On a terminal the photo is drawn with the terminal's own image protocol (kitty, \
        iTerm2, sixel) when it announces one, else with colored half-block characters. \
        Set BOWTIES_IMAGE_PROTOCOL to halfblocks, halfblocks-256, kitty, iterm2 or sixel \
        for a terminal that does not announce itself.
        """)

    @Argument(help: .tie, completion: .custom(TieCompletion.keys))
    var tie: String

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var imageOptions: ImageOptions

    func run(store: BowTieStore) throws {
      let found = try store.tie(matching: tie)
      // The photo is read and decoded only when it will be drawn, so that --json and
      // --image never, which draw none, skip that cost.
      let drawing =
        !output.json && imageOptions.drawsImage ? PhotoDrawing.forStandardOutput() : nil
      try TieOutput(json: output.json).printDetails(found, photo: drawing.map { ($0, store) })
    }
  }
}
