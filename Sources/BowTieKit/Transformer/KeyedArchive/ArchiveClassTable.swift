import Foundation

/// The classes one archive operation may contain, indexed by archived name and by type.
struct ArchiveClassTable {
  /// A class the codec can write and instantiate.
  struct Entry {
    let name: String
    let type: any (NSObject & NSSecureCoding).Type
    /// Has an instance of `type` encode itself. Casting the object to `any NSSecureCoding`
    /// would cost a scan of every protocol conformance in the binary at run time;
    /// casting it to the class `type` is a pointer check.
    let encode: (NSObject, NSCoder) -> Void
  }

  private let entries: [Entry]
  private let byName: [String: Entry]

  /// Classes that do not support secure coding are left out: they can never be archived
  /// or unarchived. `aliases` are extra archived names accepted when reading; each must
  /// map to one of `allowed`, so an alias can never widen what gets instantiated.
  init(allowed: [ArchivableClass], aliases: [String: AnyClass] = [:]) {
    var entries: [Entry] = []
    for type in allowed {
      guard type.supportsSecureCoding, !entries.contains(where: { $0.type == type })
      else { continue }
      entries.append(
        Entry(name: type.archivedClassName, type: type, encode: Self.encoder(for: type)))
    }
    var byName: [String: Entry] = [:]
    for entry in entries where byName[entry.name] == nil { byName[entry.name] = entry }
    for (alias, cls): (String, AnyClass) in aliases where byName[alias] == nil {
      if let entry = entries.first(where: { $0.type == cls }) { byName[alias] = entry }
    }
    self.entries = entries
    self.byName = byName
  }

  private static func encoder<T: NSObject & NSSecureCoding>(for _: T.Type)
    -> (NSObject, NSCoder) -> Void
  {
    { object, coder in (object as? T)?.encode(with: coder) }
  }

  func entry(named name: String) -> Entry? { byName[name] }

  /// Exact class match: a subclass of an allowed class is not allowed by implication.
  func entry(for type: AnyClass) -> Entry? {
    entries.first { ObjectIdentifier($0.type) == ObjectIdentifier(type) }
  }

  /// For messages: "TieColor" or "none".
  var allowedNamesList: String {
    entries.isEmpty ? "none" : entries.map(\.name).joined(separator: ", ")
  }
}
