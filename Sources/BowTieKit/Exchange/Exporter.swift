import Foundation

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
  public var folderFileName: String {
    format == .json ? "SampleData.json" : format == .csv ? "BowTies.csv" : "SampleData.plist"
  }

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
    let imageNames = toFolder ? Self.imageNames(items.map(\.tie)) : [:]
    var images: [String: Data] = [:]
    for item in items {
      if let name = imageNames[item.tie.id], let photo = item.photo { images[name] = photo }
    }
    switch format {
    case .csv:
      return Output(document: Data(csv(items).utf8), images: [:])
    case .plist, .json:
      let entries = items.map { entry(for: $0, imageName: imageNames[$0.tie.id]) }
      do {
        let document: Data
        switch (format, binaryPlist) {
        case (.json, _):
          document = try TieJSON.makeEncoder().encode(entries) + Data("\n".utf8)
        case (_, true):
          // Foundation's binary writer lays dictionaries out in hash order, which changes
          // from run to run; ours sorts keys, so the same store gives the same bytes.
          var writer = BinaryPropertyListWriter()
          document = Data(writer.write(.array(entries.map(\.propertyListValue))))
        default:
          // Our writer: PropertyListSerialization's refuses Swift values in a
          // --static-swift-stdlib build ("objects of type 'Not A Type'"), and
          // PropertyListEncoder writes dates before 1582 in the Julian calendar.
          document = XMLPropertyListWriter.write(.array(entries.map(\.propertyListValue)))
        }
        return Output(document: document, images: images)
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
      id: tie.id.uuidString, name: tie.name, searchKey: tie.searchKey, rating: tie.rating,
      timesWorn: Int(tie.timesWorn), isFavorite: tie.isFavorite,
      tintColor: tie.tintColor.map {
        Entry.Color(red: Int($0.red), green: Int($0.green), blue: Int($0.blue))
      },
      lastWorn: lastWorn, url: tie.url?.absoluteString,
      price: tie.price.map(BowTie.priceText),
      imageName: hasFile ? imageName : nil, photoData: hasFile ? nil : item.photo)
  }

  /// One tie under the seed format's keys; absent values are left out.
  struct Entry: Codable {
    struct Color: Codable {
      var red, green, blue: Int
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
    var imageName: String?
    var photoData: Data?

    var propertyListValue: PropertyListValue {
      var dict: [String: PropertyListValue] = [
        "id": .string(id), "name": .string(name), "searchKey": .string(searchKey),
        "rating": .real(rating), "timesWorn": .int(Int64(timesWorn)),
        "isFavorite": .bool(isFavorite),
      ]
      if let tintColor {
        dict["tintColor"] = .dict([
          "red": .int(Int64(tintColor.red)), "green": .int(Int64(tintColor.green)),
          "blue": .int(Int64(tintColor.blue)),
        ])
      }
      if let lastWorn { dict["lastWorn"] = .date(lastWorn.timeIntervalSinceReferenceDate) }
      if let url { dict["url"] = .string(url) }
      if let price { dict["price"] = .string(price) }
      if let imageName { dict["imageName"] = .string(imageName) }
      if let photoData { dict["photoData"] = .data(Array(photoData)) }
      return .dict(dict)
    }
  }

  private func csv(_ items: [Item]) -> String {
    let header = [
      "id", "searchKey", "name", "rating", "timesWorn", "lastWorn", "isFavorite", "url", "price",
      "color", "photoBytes",
    ]
    var lines = [header.joined(separator: ",")]
    for item in items {
      let tie = item.tie
      let fields = [
        tie.id.uuidString, tie.searchKey, tie.name, BowTie.formatRating(tie.rating),
        String(tie.timesWorn), tie.lastWorn.map(ISO8601.formatUTC) ?? "",
        tie.isFavorite ? "true" : "false", tie.url?.absoluteString ?? "",
        tie.price.map(BowTie.priceText) ?? "", tie.tintColor?.hex ?? "",
        String(item.photo?.count ?? 0),
      ]
      lines.append(fields.map(CSVReport.field).joined(separator: ","))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `R.png` (or `R.jpg` for a JPEG) from the search key when it makes a safe, unique file
  /// name; else the id.
  static func imageNames(_ ties: [BowTie]) -> [UUID: String] {
    var names: [UUID: String] = [:]
    var used: Set<String> = []
    for tie in ties {
      let ext = tie.photoDescription?.format.fileExtension ?? PhotoFormat.png.fileExtension
      var name = "\(photoFileStem(tie)).\(ext)"
      if used.contains(name.lowercased()) { name = "\(tie.id.uuidString).\(ext)" }
      used.insert(name.lowercased())
      names[tie.id] = name
    }
    return names
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
  /// Every tie with its photo's bytes, in the app's order, for an export.
  public func exportItems() throws(BowTieError) -> [Exporter.Item] {
    var items: [Exporter.Item] = []
    for tie in try allTies() {
      items.append(Exporter.Item(tie: tie, photo: try photoData(of: tie)))
    }
    return items
  }
}
