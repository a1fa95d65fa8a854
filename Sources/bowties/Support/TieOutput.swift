import BowTieKit
import Foundation

/// Prints ties: JSON for scripts, aligned text for people, and warnings about a tie's
/// unreadable color or missing photo on stderr.
struct TieOutput {
  var json: Bool
  var color = Terminal.usesColor

  /// A price in the locale's currency format, as the Core Data sample shows book prices.
  static func formatPrice(_ price: Decimal) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .currency
    formatter.locale = Terminal.locale
    return formatter.string(from: NSDecimalNumber(decimal: price)) ?? "\(price)"
  }

  static let dateFormatter = makeFormatter(time: .none)
  static let dateTimeFormatter = makeFormatter(time: .short)

  private static func makeFormatter(time: DateFormatter.Style) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.dateStyle = .medium
    formatter.timeStyle = time
    formatter.locale = Terminal.locale
    return formatter
  }

  /// One tie, in detail: `show`, `wear`, `rate`, `favorite`; with `photo`, its photo
  /// beside the details (or above them), unless it cannot be drawn.
  func printDetails(_ tie: BowTie, store: BowTieStore, photo: PhotoDrawing? = nil) throws {
    let photoProblem = warnAbout(tie, store: store)
    if json {
      try printJSON(TieJSON(tie))
      return
    }
    let lines = detailLines(tie)
    if let photo, photoProblem == nil, let drawn = photo.compose(tie, store: store, beside: lines) {
      print(drawn, terminator: "")
      return
    }
    print(lines.map { $0 + "\n" }.joined(), terminator: "")
  }

  /// The name, then one aligned line per attribute, without line breaks.
  func detailLines(_ tie: BowTie) -> [String] {
    let rows: [(String, String)] = [
      ("Key", tie.searchKey),
      ("Rating", "\(BowTie.formatRating(tie.rating))/5"),
      ("Times worn", String(tie.timesWorn)),
      ("Last worn", tie.lastWorn.map(Self.dateFormatter.string(from:)) ?? "never"),
      ("Favorite", tie.isFavorite ? "yes" : "no"),
      ("URL", tie.url?.absoluteString ?? "none"),
      ("Price", tie.price.map(Self.formatPrice) ?? "none"),
      ("Color", colorText(tie)),
      ("Photo", tie.photoByteCount.map { "\($0) bytes" } ?? "none"),
    ]
    return [color ? Terminal.bold(tie.name) : tie.name]
      + rows.map { label, value in
        "  " + label.padding(toLength: 12, withPad: " ", startingAt: 0) + value
      }
  }

  /// Many ties, one line each for people: `list`.
  func printList(_ ties: [BowTie], store: BowTieStore) throws {
    for tie in ties { warnAbout(tie, store: store) }
    if json {
      try printJSON(ties.map(TieJSON.init))
      return
    }
    let keyWidth = ties.map(\.searchKey.count).max() ?? 1
    let nameWidth = ties.map(\.name.count).max() ?? 1
    for tie in ties {
      let worn =
        tie.timesWorn == 0
        ? "never worn"
        : "worn \(tie.timesWorn)×, last \(tie.lastWorn.map(Self.dateFormatter.string(from:)) ?? "?")"
      let fields = [
        tie.searchKey.padding(toLength: keyWidth, withPad: " ", startingAt: 0),
        tie.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0),
        "\(BowTie.formatRating(tie.rating))/5".padding(toLength: 5, withPad: " ", startingAt: 0),
        tie.isFavorite ? "★" : " ",
        colorText(tie),
        worn,
      ]
      print(fields.joined(separator: "  "))
    }
  }

  private func colorText(_ tie: BowTie) -> String {
    guard let tint = tie.tintColor else {
      return tie.colorIssue == nil ? "none   " : "unreadable"
    }
    return color
      ? Terminal.swatch(red: tint.red, green: tint.green, blue: tint.blue) + " " + tint.hex
      : tint.hex
  }

  /// Warns about what cannot be shown; returns the photo's problem, if it has one.
  @discardableResult
  private func warnAbout(_ tie: BowTie, store: BowTieStore) -> BowTieError? {
    if let issue = tie.colorIssue {
      Terminal.warning("\(tie.name): its color cannot be read (\(issue)); shown as unreadable")
    }
    let problem = store.photoProblem(of: tie)
    if let problem {
      Terminal.warning(problem.localizedDescription)
    }
    return problem
  }

  func printJSON(_ value: some Encodable) throws {
    let data = try TieJSON.makeEncoder().encode(value)
    FileHandle.standardOutput.write(data + Data("\n".utf8))
  }
}
