import BowTieModel
import Foundation
import PropertyLists

/// One validated tie from a seed file, with its position for messages.
public struct SeedEntry: Sendable {
  /// Zero-based position in the file's array.
  public var index: Int
  public var tie: BowTie {
    didSet { isValidated = false }
  }
  /// Whether the file gave the tie's `id`; if not, the tie is matched by `searchKey`.
  public var hasExplicitID: Bool
  /// Whether the entry's photo was left out (`seed --no-photos`): a tie it replaces
  /// keeps the photo it has.
  public var photoSkipped = false
  /// Whether ``tie`` is still as validated when it was read: seeding checks it again
  /// only if someone changed it since.
  var isValidated: Bool

  init(index: Int, tie: BowTie, hasExplicitID: Bool) {
    self.index = index
    self.tie = tie
    self.hasExplicitID = hasExplicitID
    isValidated = true
  }
}

/// Reads seed files in the format of the BowTies sample's `SampleData.plist`: an array
/// of dictionaries with `name`, `searchKey`, `rating`, `tintColor` (`red`, `green`,
/// `blue`, 0–255), `imageName`, `lastWorn`, `timesWorn`, `isFavorite`, `url` and `id`.
///
/// Every entry is checked before anything is stored, so a file with one bad entry
/// changes nothing; the error names the entry's index, name and key.
public enum SeedFile {
  /// The largest photo a seed entry may bring.
  public static let maximumPhotoSize = 64 * 1024 * 1024
  /// The longest seed file read: about seven times `scripts/bench-seed`'s million ties in
  /// XML (612 MB). Anything longer is more likely endless than meant.
  static let maximumSize = 4 << 30

  static let knownKeys: Set<String> = [
    "id", "name", "searchKey", "rating", "tintColor", "imageName", "lastWorn", "timesWorn",
    "isFavorite", "url", "price", "currency", "photoData",
  ]

  /// The two encodings of the seed format.
  public enum Format: String, CaseIterable, Sendable {
    /// An XML or binary property list, as the app's SampleData.plist.
    case plist
    /// The same array of dictionaries in JSON: dates as ISO 8601 strings, photos base64.
    case json
  }

  /// Parses and validates a whole seed file: an XML or binary property list, or JSON.
  ///
  /// - Parameter source: how to name the file in messages (its path, or "standard input").
  public static func parse(
    _ data: Data, source: String, images: ImageSource, format: Format = .plist
  ) throws(BowTieError) -> [SeedEntry] {
    guard !data.isEmpty else { throw .invalidSeedFile(source: source, reason: "the file is empty") }
    var collector = Collector(images: images)
    // XML plists stream through Expat, an entry at a time; binary plists, compact
    // already, go through our strict reader, and JSON through JSONDecoder.
    if format == .plist && XMLPropertyListReader.looksLikeXML(data) {
      let root: XMLPropertyListReader.Root
      do {
        root = try XMLPropertyListReader.read(data) { index, item in
          try collector.add(item, index: index)
        }
      } catch let failure as XMLPropertyListReader.Failure {
        throw .invalidSeedFile(source: source, reason: "not a property list (\(failure.reason))")
      } catch let error as BowTieError {
        if case .invalidSeedFile(_, let reason) = error {
          throw .invalidSeedFile(source: source, reason: reason)
        }
        throw error
      } catch {
        // `collector.add` throws BowTieError only; kept so that this never traps.
        throw .invalidSeedFile(source: source, reason: "\(error)")
      }
      if case .other(let value) = root { throw notAnArray(value, source: source) }
      return collector.entries
    }
    switch format {
    case .json:
      // Not JSONSerialization: on Linux it reads some numbers one unit in the last place
      // off (1.0000000000000002 as 1.0), so an export did not read back as written.
      let root: JSONRoot
      do {
        root = try JSONDecoder().decode(JSONRoot.self, from: data)
      } catch {
        throw .invalidSeedFile(source: source, reason: "not JSON (\(jsonReason(error, data)))")
      }
      switch root {
      case .array(let values):
        for (index, item) in values.enumerated() {
          try collector.add(item, index: index)
        }
        return collector.entries
      case .other(let value):
        throw notAnArray(value, source: source)
      }
    case .plist where data.starts(with: "bplist".utf8):
      // Not PropertyListSerialization: on Linux it crashes on a binary plist holding a
      // set, as a 49-byte file can.
      let root: PropertyListValue
      do {
        root = try BinaryPropertyList.read([UInt8](data), limits: .seedFile(byteCount: data.count))
      } catch {
        throw .invalidSeedFile(source: source, reason: "not a property list (\(error.description))")
      }
      guard case .array(let values) = root else { throw notAnArray(root, source: source) }
      for (index, item) in values.enumerated() {
        try collector.add(item, index: index)
      }
      return collector.entries
    case .plist:
      // Not PropertyListSerialization for what is left (OpenStep text plists, which the
      // seed format never was): CoreFoundation logs its parse errors on stderr.
      throw .invalidSeedFile(
        source: source, reason: "not a property list (neither XML nor a binary plist)")
    }
  }

  /// Whether a document in `format` may begin with `start`, its first bytes: what
  /// ``parse(_:source:images:format:)`` decides by them alone, so that a document that
  /// cannot be one need not be read further.
  static func startsDocument(_ start: Data, format: Format) -> Bool {
    format == .json || XMLPropertyListReader.looksLikeXML(start)
      || start.starts(with: "bplist".utf8)
  }

  private static func notAnArray(_ root: PropertyListValue, source: String) -> BowTieError {
    .invalidSeedFile(
      source: source, reason: "expected an array of tie dictionaries, found \(root.kind)")
  }

  /// Checks entries one by one as they arrive, and that no id or key repeats.
  struct Collector {
    let images: ImageSource
    var entries: [SeedEntry] = []
    private var ids = RandomUUIDs()
    // The first entry with each id and key, by position and name: all a message needs.
    private var seenIDs: [UUID: (index: Int, name: String)] = [:]
    private var seenKeys: [String: (index: Int, name: String)] = [:]

    /// How a message names the entry at an index: "entry 3"; a store's importer names
    /// its rows its own way.
    let entryLabel: (Int) -> String

    init(images: ImageSource, entryLabel: @escaping (Int) -> String = { "entry \($0)" }) {
      self.images = images
      self.entryLabel = entryLabel
    }

    mutating func add(_ item: PropertyListValue, index: Int) throws(BowTieError) {
      try add(entry(item, index: index))
    }

    /// `item` read and checked as an entry, not yet added: a caller may complete it with
    /// what the seed format does not carry (a colour archive read as it is).
    mutating func entry(_ item: PropertyListValue, index: Int) throws(BowTieError) -> SeedEntry {
      try SeedFile.parseEntry(item, index: index, images: images, ids: &ids)
    }

    /// Adds `entry` once no entry before it has its id or key.
    mutating func add(_ entry: SeedEntry) throws(BowTieError) {
      let index = entry.index
      if entry.hasExplicitID, let first = seenIDs[entry.tie.id] {
        throw .invalidSeedEntry(
          index: index, name: entry.tie.name, key: "id",
          reason: "\(entry.tie.id) repeats \(entryLabel(first.index)) (\(first.name))")
      }
      let key = BowTie.canonicalKey(entry.tie.searchKey)
      if let first = seenKeys[key] {
        throw .invalidSeedEntry(
          index: index, name: entry.tie.name, key: "searchKey",
          reason: "'\(entry.tie.searchKey)' repeats \(entryLabel(first.index)) (\(first.name))")
      }
      seenIDs[entry.tie.id] = (index, entry.tie.name)
      seenKeys[key] = (index, entry.tie.name)
      entries.append(entry)
    }
  }

  /// Why `data` is not JSON. JSONDecoder says only "not valid JSON", and calls a number it
  /// cannot represent a type mismatch; JSONSerialization says where and what, so it is
  /// asked, only for a file already refused.
  private static func jsonReason(_ error: any Error, _ data: Data) -> String {
    do {
      _ = try JSONSerialization.jsonObject(with: data)
    } catch {
      let nsError = error as NSError
      if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String { return debug }
      return nsError.localizedDescription
    }
    if case .dataCorrupted(let context) = error as? DecodingError {
      return context.debugDescription
    }
    return "\(error)"
  }
}
