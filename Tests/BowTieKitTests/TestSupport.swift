import Foundation
import GRDB
import SeededRandom
import Testing

@testable import BowTieKit
@testable import BowTieModel

/// A fresh temporary folder, removed when the value is released.
final class TemporaryFolder: Sendable {
  let url: URL

  init() {
    url = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("bowties-tests-\(UUID().uuidString)", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  var storeURL: URL { url.appendingPathComponent("BowTies.sqlite") }

  /// Opens (creating, empty) a store in this folder.
  func openStore() throws -> BowTieStore {
    ColorAttributeTransformer.register()
    return try BowTieStore.open(at: storeURL).store
  }

  /// Writes a plist built from Swift values, and an `images/` folder beside it.
  @discardableResult
  func writePlist(
    _ entries: Any, name: String = "ties.plist",
    format: PropertyListSerialization.PropertyListFormat = .xml,
    images: [String: Data] = [:]
  ) throws -> URL {
    let file = url.appendingPathComponent(name)
    try PropertyListSerialization.data(fromPropertyList: entries, format: format, options: 0)
      .write(to: file)
    let folder = url.appendingPathComponent("images", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (imageName, data) in images {
      try data.write(to: folder.appendingPathComponent(imageName))
    }
    return file
  }

  var externalDataFolder: URL { StoreLocation.externalDataDirectory(forStoreAt: storeURL) }

  func externalFiles() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: externalDataFolder.path)) ?? []).sorted()
  }
}

/// An in-memory store, as GRDB's demo app tests run: nothing touches the disk.
func makeInMemoryStore() throws -> BowTieStore {
  ColorAttributeTransformer.register()
  return try BowTieStore.inMemory()
}

extension BowTieStore {
  /// The SQLite database under a test's store, for what only GRDB reaches (the schema,
  /// rows written as another tool would).
  var dbWriter: any DatabaseWriter {
    get throws { try #require(engine as? SQLiteEngine).dbWriter }
  }
}

/// A seed dictionary for one tie, with every key the format has.
func tieEntry(
  _ name: String, key: String, rating: Any = 3.0, id: String? = nil, imageName: String? = nil
) -> [String: Any] {
  var entry: [String: Any] = [
    "name": name, "searchKey": key, "rating": rating,
    "tintColor": ["red": 10, "green": 20, "blue": 30],
    "timesWorn": 2, "isFavorite": false, "url": "https://example.com/\(key)",
    "lastWorn": Date(timeIntervalSince1970: 1_700_000_000),
  ]
  if let id { entry["id"] = id }
  if let imageName { entry["imageName"] = imageName }
  return entry
}

/// A valid PNG of exactly `count` bytes, different for each seed: a 1×1 image whose size
/// is made up by a private ancillary chunk of deterministic random bytes, which decoders
/// skip. Photos are decoded on their way into the store, so stand-ins must be real.
/// Below the smallest such PNG (82 bytes), the random bytes alone.
func photoBytes(count: Int, seed: UInt64) -> Data {
  var generator = SplitMix64(seed: seed)
  let pixel = Data(
    base64Encoded:
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGM4IafxHwAEzgIOvZGGtQAAAABJRU5ErkJggg=="
  )!
  let end = pixel.count - 12  // IEND: length, type, CRC
  let filler = count - pixel.count - 12
  guard filler >= 0 else {
    return Data((0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
  }
  let body =
    Data("prVt".utf8) + Data((0..<filler).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
  var chunk = Data()
  for shift in [24, 16, 8, 0] { chunk.append(UInt8(truncatingIfNeeded: filler >> shift)) }
  chunk += body
  let crc = crc32(body)
  for shift in [24, 16, 8, 0] { chunk.append(UInt8(truncatingIfNeeded: crc >> shift)) }
  return pixel.prefix(end) + chunk + pixel.suffix(12)
}

/// PNG's chunk checksum (ISO 3309 CRC-32).
private func crc32(_ data: Data) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for byte in data {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}

/// The message a refused call gives, or "accepted".
func refusalMessage(_ body: () throws -> Void) -> String {
  do {
    try body()
    return "accepted"
  } catch {
    return error.localizedDescription
  }
}

/// Parses a JSON seed file given as text.
func parseJSONSeed(_ text: String) throws -> [SeedEntry] {
  try SeedFile.parse(Data(text.utf8), source: "x.json", images: .embedded([:]), format: .json)
}
