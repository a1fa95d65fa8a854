import Foundation

/// The formats `bowties export` writes.
public enum ExportFormat: String, CaseIterable, Sendable {
  case plist, json, csv
}

/// Writes ties in the seed format, so that what `export` writes, `seed` reads back.
///
/// `plist` and `json` carry every attribute under the seed format's keys. Exported to a
/// folder, photos become `images/<key>.png` files named by `imageName`; exported to one
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
        if format == .json {
          document =
            try JSONSerialization.data(
              withJSONObject: entries,
              options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            + Data("\n".utf8)
        } else if binaryPlist {
          // Foundation's binary writer lays dictionaries out in hash order, which changes
          // from run to run; ours sorts keys, so the same store gives the same bytes.
          var writer = BinaryPropertyListWriter()
          document = Data(writer.write(.array(entries.map(Self.propertyListValue))))
        } else {
          document = try PropertyListSerialization.data(
            fromPropertyList: entries, format: .xml, options: 0)
        }
        return Output(document: document, images: images)
      } catch {
        throw .outputUnwritable(path: "export", reason: error.reason)
      }
    }
  }

  private func entry(for item: Item, imageName: String?) -> [String: Any] {
    let tie = item.tie
    let json = format == .json
    var entry: [String: Any] = [
      "id": tie.id.uuidString, "name": tie.name, "searchKey": tie.searchKey,
      "rating": tie.rating, "timesWorn": Int(tie.timesWorn), "isFavorite": tie.isFavorite,
    ]
    if let color = tie.tintColor {
      entry["tintColor"] = [
        "red": Int(color.red), "green": Int(color.green), "blue": Int(color.blue),
      ]
    }
    if let lastWorn = tie.lastWorn {
      // Whole seconds, as an XML plist keeps them: a second export matches the first.
      let seconds = Date(timeIntervalSince1970: lastWorn.timeIntervalSince1970.rounded(.down))
      entry["lastWorn"] = json ? ISO8601.formatUTC(seconds) : seconds
    }
    if let url = tie.url { entry["url"] = url.absoluteString }
    if let price = tie.price { entry["price"] = NSDecimalNumber(decimal: price).stringValue }
    if let imageName, item.photo != nil {
      entry["imageName"] = imageName
    } else if let photo = item.photo {
      entry["photoData"] = json ? photo.base64EncodedString() : photo
    }
    return entry
  }

  /// The export's entries hold only these Swift types.
  private static func propertyListValue(_ value: Any) -> PropertyListValue {
    switch value {
    case let flag as Bool: .bool(flag)
    case let number as Int: .int(Int64(number))
    case let number as Double: .real(number)
    case let text as String: .string(text)
    case let date as Date: .date(date.timeIntervalSinceReferenceDate)
    case let data as Data: .data(Array(data))
    case let dictionary as [String: Int]: .dict(dictionary.mapValues { .int(Int64($0)) })
    case let dictionary as [String: Any]: .dict(dictionary.mapValues(propertyListValue))
    default: .string("\(value)")
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
        tie.price.map { NSDecimalNumber(decimal: $0).stringValue } ?? "", tie.tintColor?.hex ?? "",
        String(item.photo?.count ?? 0),
      ]
      lines.append(fields.map(CSVReport.field).joined(separator: ","))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `R.png` from the search key when it makes a safe, unique file name; else the id.
  static func imageNames(_ ties: [BowTie]) -> [UUID: String] {
    var names: [UUID: String] = [:]
    var used: Set<String> = []
    for tie in ties {
      let safe = tie.searchKey.allSatisfy {
        $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_")
      }
      var name = safe ? "\(tie.searchKey).png" : "\(tie.id.uuidString).png"
      if used.contains(name.lowercased()) { name = "\(tie.id.uuidString).png" }
      used.insert(name.lowercased())
      names[tie.id] = name
    }
    return names
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
