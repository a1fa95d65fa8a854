import Foundation

/// The classes one archive operation may contain, indexed by archived name and by type.
struct ArchiveClassTable {
  /// A class the codec can write and instantiate.
  struct Entry {
    let name: String
    let type: any (NSObject & NSSecureCoding).Type
  }

  private let entries: [Entry]
  private let byName: [String: Entry]

  /// Classes that are not `NSObject & NSSecureCoding & StableArchiveName`, or that do not
  /// support secure coding, are left out: they can never be archived or unarchived.
  /// `aliases` are extra archived names accepted when reading; each must map to one of
  /// `allowed`, so an alias can never widen what gets instantiated.
  init(allowed: [AnyClass], aliases: [String: AnyClass] = [:]) {
    var entries: [Entry] = []
    for cls: AnyClass in allowed {
      guard let type = cls as? any (NSObject & NSSecureCoding & StableArchiveName).Type,
        type.supportsSecureCoding,
        !entries.contains(where: { $0.type == type })
      else { continue }
      entries.append(Entry(name: type.archivedClassName, type: type))
    }
    var byName: [String: Entry] = [:]
    for entry in entries where byName[entry.name] == nil { byName[entry.name] = entry }
    for (alias, cls): (String, AnyClass) in aliases where byName[alias] == nil {
      if let entry = entries.first(where: { $0.type == cls }) { byName[alias] = entry }
    }
    self.entries = entries
    self.byName = byName
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
