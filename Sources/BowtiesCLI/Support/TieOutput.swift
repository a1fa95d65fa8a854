import BowTieKit
import BowTieModel
import Foundation
import ImageCodecs
import TextOutput

/// Prints ties: JSON for scripts, aligned text for people, and warnings about a tie's
/// unreadable color or missing photo on stderr.
struct TieOutput {
  var json: Bool
  var color = Terminal.usesColor

  /// A price in its own currency, in the number format of the locale for money
  /// (`LC_MONETARY`): "19,99 €" for EUR under de_DE, "$19.99" for USD under en_US.
  static func formatPrice(_ price: Decimal, currency: String) -> String {
    LocalizedText.price(price, currency: currency, locale: Terminal.monetaryLocale)
  }

  static let dateFormatter = makeFormatter(time: .none)
  static let dateTimeFormatter = makeFormatter(time: .short)

  /// A day in the medium date style: "Oct 14, 2026" in the POSIX locale.
  ///
  /// In the POSIX locale (LANG unset, C or POSIX: cron jobs and most scripts) the text
  /// is put together from `localtime_r`, as `date(1)` would: setting up ICU's date
  /// format costs a `show` more time and memory than its database work. Before 1583 dates
  /// go through ICU, made proleptic Gregorian as `localtime_r` is, with which this was
  /// checked only from 1583 on.
  static func day(_ date: Date) -> String {
    if Terminal.localeIdentifier == nil, let text = posixDay(date) { return text }
    return LocalizedText.string(from: date, dateFormatter)
  }

  /// The POSIX locale's medium date in the local time zone, or nil before 1583.
  static func posixDay(_ date: Date) -> String? {
    guard date >= gregorianOnly else { return nil }
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    guard localtime_r(&seconds, &parts) != nil else { return nil }
    return posixText(parts, withTime: false)
  }

  /// "Nov 21, 2026", and with `withTime` " at 8:00 AM": the POSIX locale's medium date and
  /// short time, written a byte at a time, since `history` writes one for each wear of a
  /// long history and string interpolation cost it a fifth of its time.
  fileprivate static func posixText(_ parts: tm, withTime: Bool) -> String {
    // The longest: a ten-digit year (`tm_year` is 32 bits) and the time, 30 bytes.
    String(unsafeUninitializedCapacity: 48) { buffer in
      var count = 0
      func put(_ text: StaticString) {
        text.withUTF8Buffer { bytes in
          for byte in bytes {
            buffer[count] = byte
            count += 1
          }
        }
      }
      // Every number here is 0 or more: a day, a year after 1582, an hour, a minute.
      func put(_ number: Int, digits: Int = 1) {
        let start = count
        var value = number
        repeat {
          buffer[count] = UInt8(ascii: "0") + UInt8(value % 10)
          count += 1
          value /= 10
        } while value > 0 || count - start < digits
        buffer[start..<count].reverse()
      }
      put(months[Int(parts.tm_mon)])
      put(" ")
      put(Int(parts.tm_mday))
      put(", ")
      put(Int(parts.tm_year) + 1900)
      if withTime {
        let hour = Int(parts.tm_hour) % 12 == 0 ? 12 : Int(parts.tm_hour) % 12
        put(" at ")
        put(hour)
        put(":")
        put(Int(parts.tm_min), digits: 2)
        put(parts.tm_hour < 12 ? " AM" : " PM")
      }
      return count
    }
  }

  private static let months: [StaticString] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// 1583-01-02, a day clear of the calendars' change (October 1582) in every time zone.
  private static let gregorianOnly = Date(timeIntervalSince1970: -12_212_467_200)

  /// A moment as ``dateTimeFormatter`` writes it, for one row after another: `history`'s
  /// wears come newest first, several to a minute in a long history, and the text, without
  /// seconds, changes only with the minute, so the last one is kept and used again. In
  /// the POSIX locale it is put together from `localtime_r`, as ``posixDay(_:)`` is.
  struct MinuteText {
    private var minute = Int64.min
    private var text = ""

    mutating func text(for date: Date) -> String {
      let seconds = date.timeIntervalSince1970.rounded(.down)
      var time = time_t(seconds)
      var parts = tm()
      // The same minute in UTC is the same local minute when the zone is a whole number of
      // minutes from UTC, as every zone has been since 1972; before, some were not
      // (Amsterdam's +0:19:32), and those dates go through the formatter every time, as
      // do the Julian calendar's.
      guard date >= gregorianOnly, localtime_r(&time, &parts) != nil, parts.tm_gmtoff % 60 == 0
      else {
        minute = .min
        return LocalizedText.string(from: date, dateTimeFormatter)
      }
      let thisMinute = Int64((seconds / 60).rounded(.down))
      if thisMinute != minute {
        minute = thisMinute
        text =
          Terminal.localeIdentifier == nil
          ? TieOutput.posixText(parts, withTime: true)
          : LocalizedText.string(from: date, dateTimeFormatter)
      }
      return text
    }
  }

  private static func makeFormatter(time: DateFormatter.Style) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.dateStyle = .medium
    formatter.timeStyle = time
    formatter.locale = Terminal.locale
    // Proleptic Gregorian before October 1582, as JSON, CSV and ISO 8601 write those
    // dates: ICU's Gregorian calendar is Julian before then.
    formatter.gregorianStartDate = .distantPast
    return formatter
  }

  /// One tie, in detail: `show`, `wear`, `rate`, `favorite`; with `photo`, its photo,
  /// read from `store`, beside the details (or above them), unless it cannot be drawn.
  func printDetails(
    _ tie: BowTie, photo: (drawing: PhotoDrawing, store: BowTieStore)? = nil
  ) throws {
    warnAbout(tie)
    if json {
      try printJSON(TieJSON(tie))
      return
    }
    let lines = detailLines(tie)
    var text = lines.map { $0 + "\n" }.joined()
    if let photo, tie.photoIssue == nil,
      let drawn = photo.drawing.compose(tie, store: photo.store, beside: lines)
    {
      text = drawn
    }
    try StandardOutput.write { $0.write(text) }
  }

  /// The name, then one aligned line per attribute, without line breaks.
  func detailLines(_ tie: BowTie) -> [String] {
    let rows: [(String, String)] = [
      ("Key", tie.searchKey.withVisibleControlCharacters),
      ("Rating", "\(BowTie.formatRating(tie.rating))/5"),
      ("Times worn", String(tie.timesWorn)),
      ("Last worn", tie.lastWorn.map(Self.day) ?? "never"),
      ("Favorite", tie.isFavorite ? "yes" : "no"),
      ("URL", tie.url?.absoluteString.withVisibleControlCharacters ?? "none"),
      ("Price", priceText(tie)),
      ("Color", colorText(tie)),
      ("Photo", Self.photoText(tie)),
    ]
    let name = tie.name.withVisibleControlCharacters
    return [color ? Terminal.bold(name) : name]
      + rows.map { label, value in
        // The labels are short ASCII; Foundation's padding(toLength:) would go through
        // NSString, three protocol-conformance scans on every show.
        "  " + label + String(repeating: " ", count: max(12 - label.count, 0)) + value
      }
  }

  private func priceText(_ tie: BowTie) -> String {
    guard let price = tie.price else { return "none" }
    return Self.formatPrice(price, currency: tie.currency ?? Currency.unlabelled)
  }

  /// "JPEG 4032×3024, 3.1 MB"; only the size for a photo whose format is not known (one
  /// stored before photos were checked that cannot be read); "none".
  static func photoText(_ tie: BowTie) -> String {
    guard let bytes = tie.photoByteCount else { return "none" }
    guard let photo = tie.photoDescription else { return "\(bytes) bytes" }
    return "\(photo.format.name) \(photo.width)×\(photo.height), \(byteCountText(bytes))"
  }

  /// Bytes as people read a file's size: "850 bytes", "10.8 KB", "3.1 MB" (1 KB = 1,000
  /// bytes, as Finder and ls -h --si count), a dot for the decimals whatever the locale,
  /// as ratings have.
  static func byteCountText(_ bytes: Int) -> String {
    if bytes < 1_000 { return "\(bytes) bytes" }
    for (unit, size) in [("KB", 1_000), ("MB", 1_000_000), ("GB", 1_000_000_000)] {
      let tenths = (bytes * 10 + size / 2) / size
      if tenths < 10_000 || unit == "GB" { return "\(tenths / 10).\(tenths % 10) \(unit)" }
    }
    return "\(bytes) bytes"
  }

  /// Many ties, one line each for people: `list` (``streamJSON(from:_:)`` for scripts).
  /// The columns are sized in a first reading of the keys, names and ratings, and the lines
  /// printed in a second, one tie at a time, so a million ties need not fit in memory.
  func printList(from store: BowTieStore, _ filter: TieFilter) throws {
    var widths = ListWidths()
    let measure = { (key: String, name: String, rating: Double) in
      widths.key = max(widths.key, TextCells.width(key.withVisibleControlCharacters))
      widths.name = max(widths.name, TextCells.width(name.withVisibleControlCharacters))
      widths.rating = max(widths.rating, Self.ratingText(rating).count)
    }
    try StandardOutput.write { output in
      try store.forEachTie(filter, measure: measure) { tie in
        try listLine(tie, widths: widths, to: &output)
      }
    }
  }

  /// The widths of `list`'s columns that depend on the ties: at least "4.5/5" for the
  /// rating, as wide as the longest (4.25/5) so none is cut.
  private struct ListWidths {
    var key = 1
    var name = 1
    var rating = 5
  }

  private static func ratingText(_ rating: Double) -> String {
    "\(BowTie.formatRating(rating))/5"
  }

  /// One tie's line of `list`.
  private func listLine(
    _ tie: BowTie, widths: ListWidths, to output: inout DescriptorOutputStream
  ) throws(BowTieError) {
    warnAbout(tie)
    let worn =
      tie.timesWorn == 0
      ? "never worn"
      : "worn \(tie.timesWorn)×, last \(tie.lastWorn.map(Self.day) ?? "?")"
    let colorColumn = colorText(tie)
    let fields = [
      TextCells.pad(tie.searchKey.withVisibleControlCharacters, to: widths.key),
      TextCells.pad(tie.name.withVisibleControlCharacters, to: widths.name),
      TextCells.pad(Self.ratingText(tie.rating), to: widths.rating),
      tie.isFavorite ? "★" : " ",
      // "none" as wide as a hex color, so the wear column lines up under it.
      colorColumn + String(repeating: " ", count: max(0, 7 - colorColumn.count)),
      worn,
    ]
    output.write(fields.joined(separator: "  "))
    output.write("\n")
    try output.checkStandardOutput()
  }

  private func colorText(_ tie: BowTie) -> String {
    guard let tint = tie.tintColor else {
      return tie.colorIssue == nil ? "none" : "unreadable"
    }
    return color
      ? Terminal.swatch(RGB(tint.red8, tint.green8, tint.blue8)) + " " + tint.hex
      : tint.hex
  }

  /// Warns about what cannot be shown.
  private func warnAbout(_ tie: BowTie) {
    if let issue = tie.colorIssue {
      Terminal.warning("\(tie.name): its color cannot be read (\(issue)); shown as unreadable")
    }
    if let issue = tie.photoIssue {
      Terminal.warning(issue.localizedDescription)
    }
  }

  /// `list --json`: the document `printJSON` writes for the whole array, byte for byte,
  /// written a tie at a time as the ties are read, so that a million ties need not fit in
  /// memory.
  func streamJSON(from store: BowTieStore, _ filter: TieFilter) throws {
    try StandardOutput.writeJSONArray { element in
      try store.forEachTie(filter) { tie in
        warnAbout(tie)
        try element(TieJSON(tie))
      }
    }
  }

  /// One value as JSON, by `JSONEncoder`.
  func printJSON(_ value: some Encodable) throws {
    let data = try TieJSON.makeEncoder().encode(value)
    try StandardOutput.write { output in
      output.write(bytes: data)
      output.write("\n")
    }
  }

  /// One object as JSON, by the writer of its fields: the same bytes, without setting up
  /// `JSONEncoder` on the way to printing one tie.
  func printJSON(_ value: some JSONObject) throws {
    var json = JSONWriter()
    try json.object(value)
    try StandardOutput.write { output in
      json.flush(to: &output)
      output.write("\n")
    }
  }

  /// Objects as a JSON array.
  func printJSON(_ values: [some JSONObject]) throws {
    var array = JSONArrayWriter()
    for value in values { try array.append(value) }
    array.finish()
    try StandardOutput.write { output in
      array.flush(to: &output)
      output.write("\n")
    }
  }
}
