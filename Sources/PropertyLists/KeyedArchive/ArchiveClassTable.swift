import Foundation

/// The classes one archive operation may contain, indexed by archived name and by type.
///
/// Immutable once made, and its encoders capture nothing, hence safe to share between
/// threads (`@unchecked`: class metatypes and closures are not `Sendable` to the compiler).
public struct ArchiveClassTable: @unchecked Sendable {
  /// A class the codec can write and instantiate.
  public struct Entry {
    let name: String
    let type: any (NSObject & NSSecureCoding).Type
    /// Whether an archive's root object may be of this class; the others are allowed only
    /// as objects the root (or another object) holds.
    let isTopLevel: Bool
    /// The `$classhints` written beside `$classes`: the classes a reader without this one
    /// should use instead.
    let hints: [String]
    /// Has an instance of `type` encode itself. Casting the object to `any NSSecureCoding`
    /// would cost a scan of every protocol conformance in the binary at run time;
    /// casting it to the class `type` is a pointer check.
    let encode: (NSObject, NSCoder) -> Void
  }

  private let entries: [Entry]
  private let byName: [String: Entry]

  /// Classes that do not support secure coding are left out: they can never be archived
  /// or unarchived. `nested` classes may appear in an archive only below its root object
  /// (a color's color space, say). `aliases` are extra archived names accepted when
  /// reading; each must map to one of `allowed` or `nested`, so an alias can never widen
  /// what gets instantiated.
  public init(
    allowed: [ArchivableClass], nested: [ArchivableClass] = [], aliases: [String: AnyClass] = [:]
  ) {
    var entries: [Entry] = []
    for (types, isTopLevel) in [(allowed, true), (nested, false)] {
      for type in types {
        guard type.supportsSecureCoding, !entries.contains(where: { $0.type == type })
        else { continue }
        entries.append(
          Entry(
            name: type.archivedClassName, type: type, isTopLevel: isTopLevel,
            hints: type.archivedClassHints, encode: Self.encoder(for: type)))
      }
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

  /// For messages: "TieColor" or "none". Only the classes a root may be.
  var allowedNamesList: String {
    let names = entries.filter(\.isTopLevel).map(\.name)
    return names.isEmpty ? "none" : names.joined(separator: ", ")
  }
}
