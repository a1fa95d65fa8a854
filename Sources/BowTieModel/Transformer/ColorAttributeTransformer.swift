import Foundation
import PropertyLists
import Synchronization

/// The transformer behind the transformable `tintColor` attribute: stores a ``TieColor`` as
/// the keyed archive UIKit writes for a `UIColor`, as the Core Data BowTies sample does,
/// whose transformer allows `UIColor` as its top-level class.
///
/// Reads UIKit's `UIColor` archives, AppKit's `NSColor` archives and bowties' own `TieColor`
/// archives of before (``UIColorArchive``, ``NSColorArchive``, ``TieColorArchive``); writes
/// `UIColor` archives only. Stateless but for its layout cache, hence safe to share across
/// threads.
public final class ColorAttributeTransformer: NSSecureUnarchiveFromDataTransformer,
  @unchecked Sendable
{
  /// The name the transformer is registered under.
  public static let name = NSValueTransformerName(rawValue: "ColorAttributeTransformer")

  /// Only colors: anything else in a stored archive is refused.
  override public class var archivableClasses: [ArchivableClass] {
    [UIColorArchive.self, NSColorArchive.self, TieColorArchive.self]
  }

  /// What an AppKit color in a custom color space holds: the space, and its ICC profile.
  override public class var nestedArchivableClasses: [ArchivableClass] {
    [ColorSpaceArchive.self, MutableDataArchive.self]
  }

  /// ``archivableClasses``, as Foundation's API names them.
  override public class var allowedTopLevelClasses: [AnyClass] { archivableClasses }

  /// Made once, not for each color: a `show` decodes one color, and building the table
  /// cost more than decoding it.
  override var classTable: ArchiveClassTable { Self.colorClassTable }

  private static let colorClassTable = ArchiveClassTable(
    allowed: archivableClasses, nested: nestedArchivableClasses,
    aliases: archivedClassNameAliases)

  /// Registers a shared instance under ``name``; call once at startup. (`registeredName`
  /// exists so tests can register under a fresh name without touching the shared one.)
  public static func register(as registeredName: NSValueTransformerName = name) {
    let transformer = ColorAttributeTransformer()
    ValueTransformer.setValueTransformer(transformer, forName: registeredName)
  }

  /// The values of this transformer: ``TieColor``s.
  override public class func transformedValueClass() -> AnyClass { UIColorArchive.self }

  /// Decodes a stored color archive.
  public func color(from data: Data) throws(ArchiveError) -> TieColor {
    // Every archive this transformer wrote is one of a few layouts with its components
    // put in; reading them back from a layout is what the full decoder concludes from the
    // same bytes (ShortcutTests), at a fraction of its cost, which a listing pays per
    // color. Anything else, an archive from UIKit or AppKit or a damaged one, gets full
    // checks. Laying out costs more than decoding one color the long way, so it waits
    // for a third color: a `show`, which reads one, and a `wear`, `rate` or `favorite`,
    // which read their tie before and after the change, never lay one out.
    let useLayouts = Self.decodeCount.add(1, ordering: .relaxed).newValue > 2
    if useLayouts, let color = ColorArchiveLayouts.shared.color(in: data) {
      return color
    }
    let object = try unarchivedObject(from: data)
    let color = try Self.color(of: object)
    // Only the layout of a UIColor archive can be what the next one is.
    if useLayouts, object is UIColorArchive {
      ColorArchiveLayouts.shared.prepare(for: color, transformer: self)
    }
    return color
  }

  /// Encodes a color as the archive to store: UIKit's `UIColor` form.
  public func data(from color: TieColor) throws(ArchiveError) -> Data {
    guard color.isFinite else {
      throw .unsupportedObject("a color whose components are not all finite numbers")
    }
    if let bytes = ColorArchiveLayouts.shared.archive(color, transformer: self) {
      return Data(bytes)
    }
    return try archivedData(from: UIColorArchive(color))
  }

  /// The color an archive's root object stands for.
  static func color(of object: NSObject) throws(ArchiveError) -> TieColor {
    switch object {
    case let color as UIColorArchive: return color.color
    case let color as NSColorArchive: return color.color
    case let color as TieColorArchive: return color.color
    default:
      // Unreachable while these are the only allowed classes; kept so this never traps.
      throw .classNotAllowed(String(describing: type(of: object)))
    }
  }

  /// Unarchives `Data` into a ``TieColor`` with the full decoder; nil for anything else.
  override public func transformedValue(_ value: Any?) -> Any? {
    guard let data = value as? Data, let object = try? unarchivedObject(from: data) else {
      return nil
    }
    return try? Self.color(of: object)
  }

  /// Archives a ``TieColor`` with the full encoder; nil for anything else.
  override public func reverseTransformedValue(_ value: Any?) -> Any? {
    guard let color = value as? TieColor, color.isFinite else { return nil }
    return try? archivedData(from: UIColorArchive(color))
  }

  /// The `UIColor` archive of the color `data` holds, when `data` is an archive of
  /// bowties' own `TieColor` of before; nil for any other bytes, which are left as they
  /// are: what the migration to `UIColor` archives writes for each stored color.
  package func uiColorArchive(replacingTieColorArchive data: Data) -> Data? {
    let color: TieColor
    if let legacy = ColorArchiveLayouts.shared.legacyColor(in: data) {
      color = legacy
    } else {
      guard let object = try? unarchivedObject(from: data) as? TieColorArchive else {
        return nil
      }
      color = object.color
    }
    return try? self.data(from: color)
  }

  /// How many colors this process has decoded.
  private static let decodeCount = Atomic<Int>(0)
}

/// The layouts of the `UIColor` archives this transformer writes, one for each set of
/// `-Double` keys an archive has, made the first time a color needs one.
///
/// Two archives with the same `-Double` keys differ only in their components' bytes and
/// their `NSRGB` text (whose length varies): writing one from its layout is copying, and
/// reading one is comparing every other byte with the layout's, instead of parsing a
/// property list and decoding its object graph.
final class ColorArchiveLayouts: Sendable {
  static let shared = ColorArchiveLayouts()

  /// By set of `-Double` keys (bit 0 red, 1 green, 2 blue, 3 alpha); those laid out in the
  /// order they were made, which is about how often they come.
  private let layouts = Mutex<[Layout]>([])

  /// The color in `data` when it is one of the layouts' archives; nil for any other bytes.
  func color(in data: Data) -> TieColor? {
    let layouts = self.layouts.withLock { $0 }
    return data.withUnsafeBytes { bytes in
      for layout in layouts {
        if let color = layout.color(in: bytes) { return color }
      }
      return nil
    }
  }

  /// The archive of `color`, from its layout (made now if it has none yet); nil when no
  /// layout could be made, and the encoder must do it.
  func archive(_ color: TieColor, transformer: ColorAttributeTransformer) -> [UInt8]? {
    layout(for: Layout.doubleKeys(of: color), transformer: transformer)?.archive(color)
  }

  /// The color in `data` when it is a `TieColor` archive as bowties wrote them before
  /// (three integers in one layout, as this transformer's own template was); nil for any
  /// other bytes.
  func legacyColor(in data: Data) -> TieColor? {
    guard let template = Self.legacyTemplate else { return nil }
    return data.withUnsafeBytes { bytes -> TieColor? in
      guard let values = template.values(in: bytes) else { return nil }
      let components = values.compactMap { value -> UInt8? in
        guard case .integer(let number) = value else { return nil }
        return UInt8(exactly: number)
      }
      guard components.count == 3 else { return nil }
      return TieColor(red8: components[0], green8: components[1], blue8: components[2])
    }
  }

  /// The layout of a `TieColor` archive, laid out from the encoder's archive of one when
  /// a migration first needs it.
  private static let legacyTemplate: BinaryPropertyListTemplate? = {
    let classes = ColorAttributeTransformer().classTable
    guard
      let archive = try? KeyedArchive.archivedValue(
        TieColorArchive(TieColor(red8: 1, green8: 2, blue8: 3)), classes: classes),
      case .dictionary(let top) = archive, top["$top"] == .dictionary(["root": .uid(1)])
    else { return nil }
    let root: [BinaryPropertyListTemplate.PathComponent] = [.key("$objects"), .index(1)]
    return BinaryPropertyListTemplate(
      archive, slots: ["red", "green", "blue"].map { root + [.key($0)] })
  }()

  /// Makes the layout `color`'s archive has, if it has none yet.
  func prepare(for color: TieColor, transformer: ColorAttributeTransformer) {
    guard color.isFinite else { return }
    _ = layout(for: Layout.doubleKeys(of: color), transformer: transformer)
  }

  private func layout(for doubleKeys: Int, transformer: ColorAttributeTransformer) -> Layout? {
    if let layout = layouts.withLock({ $0.first { $0.doubleKeys == doubleKeys } }) {
      return layout
    }
    guard let layout = Layout(doubleKeys: doubleKeys, transformer: transformer) else {
      return nil
    }
    layouts.withLock { layouts in
      if !layouts.contains(where: { $0.doubleKeys == doubleKeys }) { layouts.append(layout) }
    }
    return layout
  }

  /// One set of `-Double` keys' archive, as the encoder writes it.
  struct Layout: Sendable {
    static let keys = ["UIRed", "UIGreen", "UIBlue", "UIAlpha"]

    let doubleKeys: Int
    let template: BinaryPropertyListTemplate

    /// The `-Double` keys `color`'s archive has: those of components a 32-bit float
    /// does not hold exactly.
    static func doubleKeys(of color: TieColor) -> Int {
      (Double(Float(color.red)) != color.red ? 1 : 0)
        | (Double(Float(color.green)) != color.green ? 2 : 0)
        | (Double(Float(color.blue)) != color.blue ? 4 : 0)
        | (Double(Float(color.alpha)) != color.alpha ? 8 : 0)
    }

    /// Laid out from the encoder's archive of a color with those `-Double` keys, its
    /// floats, doubles and `NSRGB` the slots; nil when the archive is not as expected.
    init?(doubleKeys: Int, transformer: ColorAttributeTransformer) {
      // 0.2 (51/255) needs a -Double key, 1 does not; both are 8-bit values, whose NSRGB
      // text is worked out without the C library's formatting, so that laying a color out
      // never pays that formatting's first call, the dearest (docs/performance.md, "Colors").
      let values = (0..<4).map { doubleKeys & 1 << $0 != 0 ? 0.2 : 1 }
      let example = TieColor(red: values[0], green: values[1], blue: values[2], alpha: values[3])
      guard
        let archive = try? KeyedArchive.archivedValue(
          UIColorArchive(example), classes: transformer.classTable),
        case .dictionary(let top) = archive,
        top["$top"] == .dictionary(["root": .uid(1)])
      else { return nil }
      let root: [BinaryPropertyListTemplate.PathComponent] = [.key("$objects"), .index(1)]
      let slots =
        Self.keys.map { root + [.key($0)] }
        + Self.keys.indices.filter { doubleKeys & 1 << $0 != 0 }.map {
          root + [.key(Self.keys[$0] + "-Double")]
        } + [root + [.key("NSRGB")]]
      guard let template = BinaryPropertyListTemplate(archive, slots: slots) else { return nil }
      self.doubleKeys = doubleKeys
      self.template = template
    }

    /// The values of the slots for `color`, which must have this layout's `-Double` keys.
    private func values(of color: TieColor) -> [PropertyListValue] {
      let components = (color.red, color.green, color.blue, color.alpha)
      var values: [PropertyListValue] = [
        .real32(Float(components.0)), .real32(Float(components.1)),
        .real32(Float(components.2)), .real32(Float(components.3)),
      ]
      values.reserveCapacity(9)
      if doubleKeys & 1 != 0 { values.append(.real(components.0)) }
      if doubleKeys & 2 != 0 { values.append(.real(components.1)) }
      if doubleKeys & 4 != 0 { values.append(.real(components.2)) }
      if doubleKeys & 8 != 0 { values.append(.real(components.3)) }
      values.append(.data(Data(ColorText.rgb(color))))
      return values
    }

    func archive(_ color: TieColor) -> [UInt8] {
      template.write(values(of: color))
    }

    /// The color whose archive `bytes` are, when they are exactly what ``archive(_:)``
    /// writes for it; nil for any other bytes.
    func color(in bytes: UnsafeRawBufferPointer) -> TieColor? {
      guard let values = template.values(in: bytes) else { return nil }
      // The floats, then the doubles of the components that have one, then NSRGB.
      var next = 4
      func component(_ index: Int) -> Double? {
        guard case .real32(let float) = values[index] else { return nil }
        guard doubleKeys & 1 << index != 0 else { return Double(float) }
        defer { next += 1 }
        guard case .real(let double) = values[next], Float(double).bitPattern == float.bitPattern
        else { return nil }
        return double
      }
      guard let red = component(0), let green = component(1), let blue = component(2),
        let alpha = component(3)
      else { return nil }
      let color = TieColor(red: red, green: green, blue: blue, alpha: alpha)
      // The archive of the color read must be these very bytes: same -Double keys, same
      // text; the floats and doubles are the bytes just read.
      guard color.isFinite, Self.doubleKeys(of: color) == doubleKeys,
        case .data(let text) = values[next], text.elementsEqual(ColorText.rgb(color))
      else { return nil }
      return color
    }
  }
}
