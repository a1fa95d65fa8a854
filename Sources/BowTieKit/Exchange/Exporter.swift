import BowTieModel
import Foundation
import PropertyLists
import TextOutput

/// The formats `bowties export` writes.
public enum ExportFormat: String, CaseIterable, Sendable {
  case plist, json, csv
}

/// Writes ties in the seed format, so that what `export` writes, `seed` reads back.
///
/// `plist` and `json` carry every attribute under the seed format's keys. Exported to a
/// folder, photos become `images/<key>.png` (or `.jpg`) files named by `imageName`; exported to one
/// file, they travel inside it as `photoData` (plist data, base64 in JSON). Output is
/// deterministic: ties in the app's order, keys sorted, dates in whole seconds, so an
/// export seeded into a new store exports again to the same bytes.
public struct Exporter: Sendable {
  public var format: ExportFormat
  /// XML plist unless this is set.
  public var binaryPlist = false

  public init(format: ExportFormat, binaryPlist: Bool = false) {
    self.format = format
    self.binaryPlist = binaryPlist
  }

  /// The name of the seed file inside an export folder.
  public var folderFileName: String { ExportFolder.fileName(for: format) }

  /// One tie and its photo's bytes, as the store gives them.
  public struct Item: Sendable {
    public var tie: BowTie
    public var photo: Data?

    public init(tie: BowTie, photo: Data?) {
      self.tie = tie
      self.photo = photo
    }
  }

  /// A whole export: the seed file's bytes and, for a folder, the photos by file name.
  public struct Output: Sendable {
    public var document: Data
    public var images: [String: Data]
  }

  /// Renders `items`; `toFolder` names photos as files instead of embedding them.
  public func export(_ items: [Item], toFolder: Bool) throws(BowTieError) -> Output {
    var writer = Writer(exporter: self, toFolder: toFolder)
    var document = writer.start()
    var images: [String: Data] = [:]
    for item in items {
      let piece = try writer.add(item)
      document += piece.document
      if let image = piece.image { images[image.name] = image.data }
    }
    try writer.finish { document += $0 }
    return Output(document: document, images: images)
  }

  /// What a streamed export wrote.
  public struct Summary: Sendable {
    public var ties = 0
    public var photoFiles = 0

    public init() {}
  }

  /// Writes the export of every tie in `store` to `output`, one tie at a time from one
  /// reading of the store, so its size costs time rather than memory; with `toFolder`,
  /// each photo goes to `image` (its file name, its bytes) as its tie comes. `warn` is
  /// told of each tie whose color cannot be read (exported without one).
  ///
  /// A binary plist keeps one offset an object until its offset table, written last.
  public func write(
    from store: BowTieStore, toFolder: Bool, to output: inout DescriptorOutputStream,
    image: (_ name: String, _ data: Data) throws(BowTieError) -> Void,
    warn: (BowTie) -> Void
  ) throws(BowTieError) -> Summary {
    var writer = Writer(exporter: self, toFolder: toFolder)
    var summary = Summary()
    output.write(bytes: writer.start())
    try store.forEachExportItem { item throws(BowTieError) in
      if item.tie.colorIssue != nil { warn(item.tie) }
      let piece = try writer.add(item)
      output.write(bytes: piece.document)
      try output.stopIfWriteFailed()
      if let file = piece.image {
        try image(file.name, file.data)
        summary.photoFiles += 1
      }
      summary.ties += 1
    }
    try writer.finish { output.write(bytes: $0) }
    return summary
  }

  /// An export put together a tie at a time: the document's bytes as they are ready, and
  /// each photo that becomes a file. The same ties give the same bytes, whether they are
  /// added at once or as they are read.
  struct Writer {
    let exporter: Exporter
    let toFolder: Bool
    /// File names given so far, lowercased: a name is never given twice, whatever the
    /// file system's idea of case.
    private var usedNames: Set<String> = []
    /// The JSON array, written a tie at a time.
    private var array = JSONArrayWriter()
    /// A binary plist, written a tie at a time.
    private var binary = BinaryPropertyListArrayWriter()
    private var started = false

    init(exporter: Exporter, toFolder: Bool) {
      self.exporter = exporter
      self.toFolder = toFolder
    }

    /// The document's opening.
    mutating func start() -> Data {
      switch (exporter.format, exporter.binaryPlist) {
      case (.csv, _): Data((Exporter.csvHeader.joined(separator: ",") + "\n").utf8)
      case (.plist, true): Data(binary.start())
      case (.plist, false): Data(XMLPropertyListWriter.header.utf8)
      default: Data()
      }
    }

    /// Adds one tie: what of the document is ready, and its photo as a file.
    mutating func add(_ item: Item) throws(BowTieError) -> (
      document: Data, image: (name: String, data: Data)?
    ) {
      let name = toFolder ? Exporter.imageName(for: item.tie, used: &usedNames) : nil
      let image = name.flatMap { name in item.photo.map { (name: name, data: $0) } }
      var document = Data()
      switch (exporter.format, exporter.binaryPlist) {
      case (.csv, _):
        document = Data((Exporter.csvRow(item) + "\n").utf8)
      case (.plist, true):
        let value = exporter.entry(for: item, imageName: name).propertyListValue
        document = Data(
          try Self.binaryStep { () throws(ArchiveError) in try binary.append(value) })
      case (.plist, false):
        let value = exporter.entry(for: item, imageName: name).propertyListValue
        document = Data(
          ((started ? "" : "<array>\n") + XMLPropertyListWriter.text(of: value, indent: "\t"))
            .utf8)
      case (.json, _):
        let entry = exporter.entry(for: item, imageName: name)
        try encode { try $0.append(entry) }
        array.flush(to: &document)
      }
      started = true
      return (document, image)
    }

    /// The rest of the document, handed to `emit` in one piece or, for a binary plist's
    /// offset table, several.
    mutating func finish(_ emit: (Data) -> Void) throws(BowTieError) {
      switch (exporter.format, exporter.binaryPlist) {
      case (.csv, _):
        return
      case (.plist, true):
        // Foundation's binary writer lays dictionaries out in hash order, which changes
        // from run to run; ours sorts keys, so the same store gives the same bytes.
        try Self.binaryStep { () throws(ArchiveError) in try binary.finish { emit(Data($0)) } }
      case (.plist, false):
        emit(Data(((started ? "</array>\n" : "<array/>\n") + XMLPropertyListWriter.footer).utf8))
      case (.json, _):
        array.finish()
        var rest = Data()
        array.flush(to: &rest)
        emit(rest + Data("\n".utf8))
      }
    }

    /// A step of the binary plist; a document more than its references can reach (four
    /// billion objects) is the export's failure.
    private static func binaryStep<Result>(_ step: () throws(ArchiveError) -> Result)
      throws(BowTieError) -> Result
    {
      do {
        return try step()
      } catch {
        throw .outputUnwritable(path: "export", reason: error.description)
      }
    }

    /// Runs `body` on the JSON array; a value JSON cannot hold is the export's failure.
    private mutating func encode(_ body: (inout JSONArrayWriter) throws -> Void)
      throws(BowTieError)
    {
      do {
        try body(&array)
      } catch {
        throw .outputUnwritable(path: "export", reason: error.reason)
      }
    }
  }

  private func entry(for item: Item, imageName: String?) -> Entry {
    let tie = item.tie
    // Whole seconds, as an XML plist keeps them: a second export matches the first.
    let lastWorn = tie.lastWorn.map {
      Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down))
    }
    let hasFile = imageName != nil && item.photo != nil
    return Entry(
      id: tie.id.text, name: tie.name, searchKey: tie.searchKey, rating: tie.rating,
      timesWorn: Int(tie.timesWorn), isFavorite: tie.isFavorite,
      tintColor: tie.tintColor.map {
        Entry.Color(
          red: Int($0.red8), green: Int($0.green8), blue: Int($0.blue8),
          alpha: $0.isOpaque ? nil : Int($0.alpha8))
      },
      lastWorn: lastWorn, url: tie.url?.absoluteString,
      price: tie.price.map(BowTie.priceText), currency: tie.currency,
      imageName: hasFile ? imageName : nil, photoData: hasFile ? nil : item.photo)
  }

  /// One tie under the seed format's keys; absent values are left out.
  struct Entry: Codable, JSONObject {
    /// 0–255 each; the alpha only for a color that is not opaque.
    struct Color: Codable, JSONObject {
      var red, green, blue: Int
      var alpha: Int?

      func writeFields(to fields: inout some JSONFields) throws {
        try fields.field("alpha", alpha, omittingNil: true)
        try fields.field("blue", blue)
        try fields.field("green", green)
        try fields.field("red", red)
      }

      func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
    }

    var id: String
    var name: String
    var searchKey: String
    var rating: Double
    var timesWorn: Int
    var isFavorite: Bool
    var tintColor: Color?
    var lastWorn: Date?
    var url: String?
    var price: String?
    var currency: String?
    var imageName: String?
    var photoData: Data?

    /// Dates as ISO 8601 UTC and photos as base64, as `TieJSON.makeEncoder()` writes them.
    func writeFields(to fields: inout some JSONFields) throws {
      try fields.field("currency", currency, omittingNil: true)
      try fields.field("id", id)
      try fields.field("imageName", imageName, omittingNil: true)
      try fields.field("isFavorite", isFavorite)
      try fields.field("lastWorn", lastWorn.map(ISO8601.formatUTC), omittingNil: true)
      try fields.field("name", name)
      try fields.field("photoData", photoData?.base64EncodedString(), omittingNil: true)
      try fields.field("price", price, omittingNil: true)
      try fields.field("rating", rating)
      try fields.field("searchKey", searchKey)
      try fields.field("timesWorn", timesWorn)
      try fields.field("tintColor", tintColor, omittingNil: true)
      try fields.field("url", url, omittingNil: true)
    }

    func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }

    var propertyListValue: PropertyListValue {
      var dict: [String: PropertyListValue] = [
        "id": .string(id), "name": .string(name), "searchKey": .string(searchKey),
        "rating": .real(rating), "timesWorn": .integer(Int64(timesWorn)),
        "isFavorite": .bool(isFavorite),
      ]
      if let tintColor {
        var color: [String: PropertyListValue] = [
          "red": .integer(Int64(tintColor.red)), "green": .integer(Int64(tintColor.green)),
          "blue": .integer(Int64(tintColor.blue)),
        ]
        if let alpha = tintColor.alpha { color["alpha"] = .integer(Int64(alpha)) }
        dict["tintColor"] = .dictionary(color)
      }
      if let lastWorn { dict["lastWorn"] = .date(lastWorn) }
      if let url { dict["url"] = .string(url) }
      if let price { dict["price"] = .string(price) }
      if let currency { dict["currency"] = .string(currency) }
      if let imageName { dict["imageName"] = .string(imageName) }
      if let photoData { dict["photoData"] = .data(photoData) }
      return .dictionary(dict)
    }
  }

  static let csvHeader = [
    "id", "searchKey", "name", "rating", "timesWorn", "lastWorn", "isFavorite", "url", "price",
    "currency", "color", "photoBytes",
  ]

  /// One tie's CSV row, without its line break.
  static func csvRow(_ item: Item) -> String {
    let tie = item.tie
    let fields = [
      tie.id.uuidString, tie.searchKey, tie.name, BowTie.formatRating(tie.rating),
      String(tie.timesWorn), tie.lastWorn.map(ISO8601.formatUTC) ?? "",
      tie.isFavorite ? "true" : "false", tie.url?.absoluteString ?? "",
      tie.price.map(BowTie.priceText) ?? "", tie.currency ?? "", tie.tintColor?.hex ?? "",
      String(item.photo?.count ?? 0),
    ]
    return fields.map(CSV.field).joined(separator: ",")
  }

  /// `R.png` (or `R.jpg` for a JPEG) from the search key when it makes a safe file name
  /// not given yet (in `used`, lowercased); else the id's.
  static func imageName(for tie: BowTie, used: inout Set<String>) -> String {
    let ext = tie.photoDescription?.format.fileExtension ?? PhotoFormat.png.fileExtension
    var name = "\(photoFileStem(tie)).\(ext)"
    if used.contains(name.lowercased()) { name = "\(tie.id.uuidString).\(ext)" }
    used.insert(name.lowercased())
    return name
  }
}

extension Exporter {
  /// The name a tie's photo file is given, without its extension: the search key when it
  /// is a safe file name, else the id.
  public static func photoFileStem(_ tie: BowTie) -> String {
    let safe = tie.searchKey.allSatisfy {
      $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_")
    }
    return safe ? tie.searchKey : tie.id.uuidString
  }
}

extension BowTieStore {
  /// Calls `body` with each tie and its photo's bytes, in the app's order, one row at a
  /// time from a single read.
  func forEachExportItem(_ body: (Exporter.Item) throws(BowTieError) -> Void)
    throws(BowTieError)
  {
    try read { db in
      try db.forEachRow("SELECT \(BowTie.Columns.all) FROM bowTie ORDER BY \(BowTie.appOrder)") {
        row in
        let tie = try BowTie(row: row)
        // The row brought an inline photo's bytes; an external one is read from its file.
        let photo = try tie.externalPhotoName.map { name throws(BowTieError) in
          try engine.readPhoto(name, expectedSize: tie.storedPhotoByteCount, tie: tie.name)
        }
        try body(Exporter.Item(tie: tie, photo: photo ?? tie.photoData))
      }
    }
  }
}
