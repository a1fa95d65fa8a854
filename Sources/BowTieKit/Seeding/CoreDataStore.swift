import BowTieModel
import Foundation
import PropertyLists

#if canImport(Glibc)
  import Glibc
#endif

/// The BowTies app's own Core Data store, read as a seed: the `.sqlite` file from the app's
/// data container, with its `-wal` and its support folder.
///
/// Read as public descriptions of Core Data's SQLite store have it (the fixtures' README,
/// Tests/Fixtures/CoreData, names them): the entity `BowTie` is the table `ZBOWTIE` and
/// its attribute `name` the column `ZNAME`; entity numbers are in `Z_PRIMARYKEY`, the
/// store's metadata is a binary property list in `Z_METADATA`; dates are seconds since
/// 2001-01-01 UTC; a UUID is its 16 bytes; a photo that allows external storage starts
/// with a marker byte. Model version hashes are not checked: they change with any edit of
/// the app's model. The earlier editions' model (entity `Bowtie`, without `id` and `url`)
/// is read too.
///
/// The store is read through a private copy (``ForeignSQLiteFile``): its files are only
/// ever opened for reading, and nothing is added beside them.
enum CoreDataStore {
  /// `ZBOWTIE`'s columns: Core Data's own three, then one per attribute of the model.
  static let knownColumns = Set(["Z_ENT", "Z_OPT"] + Column.allCases.map(\.name))
  /// The attributes the earlier editions' model did not have.
  static let optionalColumns: Set<String> = ["ZID", "ZURL"]

  /// The column each seed key is read from, for messages that name the column.
  private static let columnOfKey = [
    "name": "ZNAME", "searchKey": "ZSEARCHKEY", "rating": "ZRATING", "timesWorn": "ZTIMESWORN",
    "lastWorn": "ZLASTWORN", "isFavorite": "ZISFAVORITE", "url": "ZURL", "id": "ZID",
    "photoData": "ZPHOTODATA", "tintColor": "ZTINTCOLOR",
  ]

  /// Every tie of the app's store in `folder`, found by its content among the SQLite files
  /// there; nil when the folder holds no SQLite file.
  ///
  /// - Parameter argument: the folder as the user gave it, for messages.
  static func entries(inFolder folder: URL, argument: String, photos: Bool) throws(BowTieError)
    -> [SeedEntry]?
  {
    let names = databases(in: folder)
    func named(_ file: String) -> String { (argument as NSString).appendingPathComponent(file) }
    guard names.count > 1 else {
      return try names.first.map { name throws(BowTieError) in
        try entries(at: folder.appendingPathComponent(name), name: named(name), photos: photos)
      }
    }
    // Several: the app's store is the one that is, and only its rows are read.
    var stores: [String] = []
    var others: [String] = []
    for name in names {
      let file = folder.appendingPathComponent(name)
      do {
        try ForeignSQLiteFile.read(copyOf: file, named: named(name)) { contents in
          _ = try model(in: contents, name: named(name))
        }
        stores.append(name)
      } catch .invalidSeedFile(_, let reason) {
        others.append("\(name.withVisibleControlCharacters), \(reason)")
      }
    }
    switch stores.count {
    case 0:
      throw .invalidSeedFile(
        source: argument,
        reason: "none of its SQLite files is the BowTies app's store: "
          + others.joined(separator: "; "))
    case 1:
      return try entries(
        at: folder.appendingPathComponent(stores[0]), name: named(stores[0]), photos: photos)
    default:
      throw .usage(
        "\(argument) holds \(stores.count) stores of the BowTies app ("
          + stores.map(\.withVisibleControlCharacters).joined(separator: ", ")
          + "): give the path of the one to seed")
    }
  }

  /// The names of the SQLite databases in `folder`, by their first bytes, sorted; hidden
  /// files are left out, as Core Data's support folder is hidden.
  private static func databases(in folder: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().filter { name in
      !name.hasPrefix(".")
        && ForeignSQLiteFile.kind(of: folder.appendingPathComponent(name)) == .database
    }
  }

  /// Every tie in the Core Data store at `url`, read and checked as a seed file's entries
  /// are: one bad row refuses the whole store, named by its `Z_PK` and its name.
  ///
  /// - Parameters:
  ///   - name: how messages name the store (the path as the user gave it).
  ///   - photos: whether photos are read (`seed --no-photos` says not).
  static func entries(at url: URL, name: String, photos: Bool) throws(BowTieError)
    -> [SeedEntry]
  {
    let store = url.resolvingSymlinksInPath()
    return try ForeignSQLiteFile.read(copyOf: store, named: name) { contents in
      let model = try model(in: contents, name: name)
      return try entries(
        in: contents.connection, model: model, store: store, name: name, photos: photos)
    }
  }

  /// What a store is, once it is known to be the app's: its entity's number and the
  /// columns its table has.
  struct Model {
    var entity: Int64
    var columns: [String]
  }

  /// Recognizes the app's store: Core Data's tables, a SQLite store by its metadata, the
  /// entity `BowTie` in `Z_PRIMARYKEY`, and `ZBOWTIE` with the model's columns and no other.
  ///
  /// - Throws: ``BowTieError/invalidSeedFile(source:reason:)`` saying what the store is
  ///   instead.
  static func model(in contents: ForeignSQLiteFile.Contents, name: String) throws -> Model {
    func refuse(_ reason: String) -> BowTieError { .invalidSeedFile(source: name, reason: reason) }
    let connection = contents.connection
    guard try contents.hasTable("Z_PRIMARYKEY"), try contents.hasTable("Z_METADATA") else {
      throw refuse(
        "a SQLite database, but not a Core Data store (it has no Z_PRIMARYKEY and Z_METADATA tables)"
      )
    }
    try checkMetadata(connection, refuse: refuse)
    let entities = try connection.fetchRows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT")
    // Core Data names an entity's table after it in capitals: the earlier editions'
    // `Bowtie` is ZBOWTIE too.
    guard
      let bowTie = entities.first(where: { $0["Z_NAME"].text?.uppercased() == "BOWTIE" }),
      let entity = bowTie["Z_ENT"].integer, try contents.hasTable("ZBOWTIE")
    else {
      let names = entities.compactMap { $0["Z_NAME"].text?.withVisibleControlCharacters }
      throw refuse(
        "a Core Data store of another app: its entities are "
          + (names.isEmpty ? "none" : names.joined(separator: ", "))
          + ", and the BowTies app's is BowTie")
    }
    let columns = try contents.columnNames(of: "ZBOWTIE")
    let known = Set(columns.map { $0.uppercased() })
    let unknown = columns.filter { !knownColumns.contains($0.uppercased()) }
    guard unknown.isEmpty else {
      throw refuse(
        "a store of a newer version of the BowTies app: ZBOWTIE has columns bowties does not know ("
          + unknown.map(\.withVisibleControlCharacters).joined(separator: ", ") + ")")
    }
    if let missing = knownColumns.subtracting(optionalColumns).subtracting(known).sorted().first {
      throw refuse("a Core Data store of another app: ZBOWTIE has no \(missing) column")
    }
    return Model(entity: entity, columns: columns)
  }

  /// Refuses a store whose metadata is not the binary property list Core Data writes, or
  /// says it is not a SQLite store.
  private static func checkMetadata(
    _ connection: any SQLConnection, refuse: (String) -> BowTieError
  ) throws {
    let row = try connection.fetchOne(
      "SELECT Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION DESC LIMIT 1")
    guard case .blob(let bytes)? = row?[0],
      case .dictionary(let metadata)? = try? BinaryPropertyList.read(
        [UInt8](bytes), limits: PropertyListLimits(allowsDates: true))
    else {
      throw refuse("a Core Data store whose metadata (Z_METADATA) is not a binary property list")
    }
    switch metadata["NSStoreType"] {
    case .string("SQLite"): break
    case .string(let type):
      throw refuse(
        "a Core Data store whose metadata says its type is '\(type.withVisibleControlCharacters)', not SQLite"
      )
    case let other:
      throw refuse(
        "a Core Data store whose metadata names no store type (NSStoreType is \(other?.kind ?? "missing"))"
      )
    }
  }

  private static func entries(
    in connection: any SQLConnection, model: Model, store: URL, name: String, photos: Bool
  ) throws -> [SeedEntry] {
    let support = ExternalData(store: store)
    let transformer = try BowTie.colorTransformer()
    // Each entry's Z_PK, by its index, for a message about a repeated id or key.
    final class Keys { var byIndex: [Int64] = [] }
    let keys = Keys()
    var collector = SeedFile.Collector(
      images: photos ? .embedded([:]) : .skipped, entryLabel: { "row Z_PK \(keys.byIndex[$0])" })
    var index = 0
    // The model's columns by name, never `*` (a generated column would be computed for
    // every row), NULL for those an earlier model lacks; read by position.
    let present = Set(model.columns.map { $0.uppercased() })
    let selected =
      Column.allCases.map { present.contains($0.name) ? $0.name : "NULL" }
      + textColumns.map { present.contains($1.name) ? "CAST(\($1.name) AS BLOB)" : "NULL" }
    try connection.forEachRow(
      """
      SELECT \(sql: selected.joined(separator: ", ")) FROM ZBOWTIE
        WHERE Z_ENT = \(model.entity) ORDER BY Z_PK
      """
    ) { sqlRow in
      let row = { (column: Column) in sqlRow[column.rawValue] }
      let textBytes = { (offset: Int) in sqlRow[Column.allCases.count + offset] }
      let key = row(.pk).integer ?? 0
      keys.byIndex.append(key)
      let label =
        "row Z_PK \(key)"
        + (row(.name).text.map { " (\($0.excerpt.withVisibleControlCharacters))" } ?? "")
      func failure(_ column: String, _ reason: String) -> BowTieError {
        .invalidSeedFile(
          source: name, reason: label + ": " + (column.isEmpty ? reason : "\(column) \(reason)"))
      }
      do {
        var fields = try seedFields(of: row, textBytes: textBytes, failure: failure)
        let photoValue = row(.photoData)
        if photos, let photo = try support.photo(in: photoValue, failure: failure) {
          fields["photoData"] = .data(photo)
        }
        var entry = try collector.entry(.dictionary(fields), index: index)
        entry.tie.tintColor = try color(
          in: row(.tintColor), transformer: transformer, failure: failure)
        // The colour is not among what validation checks: the tie is as validated.
        entry.isValidated = true
        if !photos, photoValue != .null { entry.photoSkipped = true }
        try collector.add(entry)
      } catch BowTieError.invalidSeedEntry(_, _, let seedKey, let reason) {
        let column = seedKey.flatMap { columnOfKey[$0] } ?? ""
        // A photo's reasons name what the bytes are, not what is wrong with a column.
        throw failure(column == "ZPHOTODATA" ? "ZPHOTODATA:" : column, reason)
      }
      index += 1
    }
    return collector.entries
  }

  /// The columns of `ZBOWTIE` the import reads, in the order it selects them.
  private enum Column: Int, CaseIterable {
    case pk, name, searchKey, rating, timesWorn, lastWorn, isFavorite, url, id, photoData
    case tintColor

    var name: String {
      switch self {
      case .pk: "Z_PK"
      case .name: "ZNAME"
      case .searchKey: "ZSEARCHKEY"
      case .rating: "ZRATING"
      case .timesWorn: "ZTIMESWORN"
      case .lastWorn: "ZLASTWORN"
      case .isFavorite: "ZISFAVORITE"
      case .url: "ZURL"
      case .id: "ZID"
      case .photoData: "ZPHOTODATA"
      case .tintColor: "ZTINTCOLOR"
      }
    }
  }

  /// The text attributes, by their seed keys: selected a second time as their bytes
  /// (`textBytes`), since SQLite hands text over as a C string, which ends at a NUL and
  /// has invalid UTF-8 replaced. Another program's store is read as it is: a NUL is
  /// refused as every control character is, and bytes that are not UTF-8 are refused.
  private static let textColumns: [(key: String, column: Column)] = [
    ("name", .name), ("searchKey", .searchKey), ("url", .url),
  ]

  /// A row's attributes as a seed entry's keys; NULL attributes are left out, as a seed
  /// file leaves them out.
  private static func seedFields(
    of row: (Column) -> SQLValue, textBytes: (Int) -> SQLValue,
    failure: (String, String) -> BowTieError
  ) throws(BowTieError) -> [String: PropertyListValue] {
    var fields: [String: PropertyListValue] = [:]
    for (offset, (key, column)) in textColumns.enumerated() {
      switch row(column) {
      case .null: break
      case .text:
        guard case .blob(let bytes) = textBytes(offset),
          let text = String(validating: bytes, as: UTF8.self)
        else { throw failure(column.name, "is not UTF-8 text") }
        fields[key] = .string(text)
      case let other: throw failure(column.name, "is \(other.kind), not text")
      }
    }
    switch row(.rating) {
    case .null: break
    case .real(let number): fields["rating"] = .real(number)
    case .integer(let number): fields["rating"] = .integer(number)
    case let other: throw failure("ZRATING", "is \(other.kind), not a number")
    }
    switch row(.timesWorn) {
    case .null: break
    case .integer(let number): fields["timesWorn"] = .integer(number)
    case let other: throw failure("ZTIMESWORN", "is \(other.kind), not a whole number")
    }
    switch row(.isFavorite) {
    case .null: break
    case .integer(let flag) where flag == 0 || flag == 1: fields["isFavorite"] = .bool(flag == 1)
    case let other: throw failure("ZISFAVORITE", "is \(other.kind), not a boolean (0 or 1)")
    }
    switch row(.lastWorn) {
    case .null: break
    case .real(let seconds) where seconds.isFinite:
      fields["lastWorn"] = .date(Date(timeIntervalSinceReferenceDate: seconds))
    case .integer(let seconds):
      fields["lastWorn"] = .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
    case let other: throw failure("ZLASTWORN", "is \(other.kind), not a date")
    }
    switch row(.id) {
    case .null: break
    case .blob(let bytes) where bytes.count == 16:
      fields["id"] = .string(
        UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }).text)
    case let other: throw failure("ZID", "is \(other.kind), not a 16-byte UUID")
    }
    return fields
  }

  /// The colour a row's `ZTINTCOLOR` archive holds, read by the registered transformer as
  /// the app's reads it; nil for NULL.
  private static func color(
    in value: SQLValue, transformer: ColorAttributeTransformer,
    failure: (String, String) -> BowTieError
  ) throws(BowTieError) -> TieColor? {
    switch value {
    case .null: return nil
    case .blob(let archive):
      do {
        return try transformer.color(from: archive)
      } catch {
        throw failure("ZTINTCOLOR", "cannot be read: \(error.description)")
      }
    case let other: throw failure("ZTINTCOLOR", "is \(other.kind), not a colour archive")
    }
  }

  /// Where Core Data keeps the values of attributes that allow external storage:
  /// `.<StoreName>_SUPPORT/_EXTERNAL_DATA/` beside the store.
  struct ExternalData {
    let folder: URL
    /// The folder as messages show it, from the store's folder.
    let shownFolder: String

    init(store: URL) {
      let storeName = store.deletingPathExtension().lastPathComponent
      shownFolder = ".\(storeName)_SUPPORT/_EXTERNAL_DATA"
      folder = store.deletingLastPathComponent()
        .appendingPathComponent(shownFolder, isDirectory: true)
    }

    /// A photo column's bytes: after a marker byte 1, the data itself; after a marker byte
    /// 2, a file name and a NUL, naming a file in ``folder``. A value with neither marker
    /// is the data itself, as an attribute without external storage keeps it (no photo
    /// format starts with byte 1 or 2).
    func photo(
      in value: SQLValue, failure: (String, String) -> BowTieError
    ) throws(BowTieError) -> Data? {
      switch value {
      case .null: return nil
      case .blob(let bytes) where bytes.first == 1: return bytes.dropFirst()
      case .blob(let bytes) where bytes.first == 2:
        let name = bytes.dropFirst()
        guard let end = name.firstIndex(of: 0), end == name.index(before: name.endIndex) else {
          throw failure(
            "ZPHOTODATA", "names an external file without the one NUL that ends its name")
        }
        return try read(String(decoding: name[..<end], as: UTF8.self), failure: failure)
      case .blob(let bytes): return bytes
      case let other: throw failure("ZPHOTODATA", "is \(other.kind), not data")
      }
    }

    /// The external file `name`: a plain file name, of a regular file that is inside the
    /// folder once every link is followed.
    private func read(
      _ name: String, failure: (String, String) -> BowTieError
    ) throws(BowTieError) -> Data {
      let visible = name.withVisibleControlCharacters
      guard !name.isEmpty, name != ".", name != "..", !name.contains("/"),
        !name.contains("\u{FFFD}"), visible == name, name.utf8.count <= 255
      else {
        throw failure(
          "ZPHOTODATA", "names the external file '\(visible)', which is not a plain file name")
      }
      let shown = "\(shownFolder)/\(name)"
      guard let base = Self.resolved(folder.path) else {
        throw failure("ZPHOTODATA", "is kept in \(shown), and there is no \(shownFolder) folder")
      }
      guard let real = Self.resolved(folder.appendingPathComponent(name).path) else {
        throw failure("ZPHOTODATA", "is kept in \(shown), which is missing")
      }
      guard real.hasPrefix(base + "/") else {
        throw failure("ZPHOTODATA", "is kept in \(shown), a link out of the support folder")
      }
      var info = stat()
      guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
        throw failure("ZPHOTODATA", "is kept in \(shown), which is not a file")
      }
      guard info.st_size <= SeedFile.maximumPhotoSize else {
        throw failure(
          "ZPHOTODATA", "is kept in \(shown), larger than \(SeedFile.maximumPhotoSize >> 20) MiB")
      }
      guard let data = FileManager.default.contents(atPath: real) else {
        throw failure("ZPHOTODATA", "is kept in \(shown), which cannot be read")
      }
      return data
    }

    /// `path` with every link followed, as `realpath(3)` gives it; nil when it is missing.
    private static func resolved(_ path: String) -> String? {
      guard let resolved = realpath(path, nil) else { return nil }
      defer { free(resolved) }
      return String(cString: resolved)
    }
  }
}

extension SQLValue {
  /// What a message says a column held: "text", "a number".
  fileprivate var kind: String {
    switch self {
    case .null: "NULL"
    case .integer(let number): "the integer \(number)"
    case .real(let number): "the number \(number)"
    case .text: "text"
    case .blob(let data): "\(data.count) bytes of data"
    }
  }
}
