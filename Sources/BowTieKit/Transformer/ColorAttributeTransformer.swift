import Foundation
import Synchronization

/// The transformer behind the transformable `tintColor` attribute: stores a ``TieColor`` as
/// a keyed archive, as the Core Data BowTies sample does.
///
/// Stateless, hence safe to share across threads.
public final class ColorAttributeTransformer: NSSecureUnarchiveFromDataTransformer,
  @unchecked Sendable
{
  /// The name the transformer is registered under.
  public static let name = NSValueTransformerName(rawValue: "ColorAttributeTransformer")

  /// Only colors: anything else in a stored archive is refused.
  override public class var archivableClasses: [ArchivableClass] { [TieColor.self] }

  /// ``archivableClasses``, as Foundation's API names them.
  override public class var allowedTopLevelClasses: [AnyClass] { archivableClasses }

  /// Registers a shared instance under ``name``; call once at startup. (`registeredName`
  /// exists so tests can register under a fresh name without touching the shared one.)
  public static func register(as registeredName: NSValueTransformerName = name) {
    let transformer = ColorAttributeTransformer()
    ValueTransformer.setValueTransformer(transformer, forName: registeredName)
  }

  /// Decodes a stored color archive.
  public func color(from data: Data) throws(ArchiveError) -> TieColor {
    // Every archive this transformer wrote is the template with its components patched in;
    // reading those three bytes back is what the full decoder concludes from the same bytes
    // (ShortcutTests), at a fraction of the full decoder's cost, which a listing pays per
    // color. Anything else, an archive from Foundation or a damaged one, gets full checks.
    // Making the template costs more than decoding one color the long way, so it waits for
    // a second color: a `show`, which has one, never makes it.
    if Self.decodeCount.add(1, ordering: .relaxed).newValue > 1,
      let color = Self.template?.color(in: data)
    {
      return color
    }
    let object = try unarchivedObject(from: data)
    guard let color = object as? TieColor else {
      // Unreachable while TieColor is the only allowed class; kept so this never traps.
      throw .classNotAllowed(String(describing: type(of: object)))
    }
    return color
  }

  /// Encodes a color as an archive for storage.
  public func data(from color: TieColor) throws(ArchiveError) -> Data {
    guard let template = Self.template else { return try archivedData(from: color) }
    return template.archive(color)
  }

  /// How many colors this process has decoded.
  private static let decodeCount = Atomic<Int>(0)

  /// Every color's archive has the same bytes but for its three components: they are
  /// always one-byte integers, and the writer never shares objects. Seeding 100,000 ties
  /// archives 100,000 colors, so the archive is made once and the components patched in.
  struct Template {
    let bytes: [UInt8]
    let offsets: (red: Int, green: Int, blue: Int)

    func archive(_ color: TieColor) -> Data {
      var bytes = self.bytes
      bytes[offsets.red] = color.red
      bytes[offsets.green] = color.green
      bytes[offsets.blue] = color.blue
      return Data(bytes)
    }

    /// The color in an archive that `archive(_:)` could have written: the template's bytes
    /// with any three components; nil for any other bytes.
    func color(in data: Data) -> TieColor? {
      guard data.count == bytes.count else { return nil }
      return data.withUnsafeBytes { (archive: UnsafeRawBufferPointer) -> TieColor? in
        for (offset, byte) in bytes.enumerated() where archive[offset] != byte {
          guard offset == offsets.red || offset == offsets.green || offset == offsets.blue
          else { return nil }
        }
        return TieColor(
          red: archive[offsets.red], green: archive[offsets.green], blue: archive[offsets.blue])
      }
    }
  }

  /// Found by archiving two colors that differ in every component with the real encoder
  /// and locating the three bytes that differ; nil (the slow path) if the layout is not so.
  static let template: Template? = {
    let transformer = ColorAttributeTransformer()
    guard let first = try? transformer.archivedData(from: TieColor(red: 1, green: 2, blue: 3)),
      let second = try? transformer.archivedData(from: TieColor(red: 4, green: 5, blue: 6)),
      first.count == second.count
    else { return nil }
    let bytes = Array(first)
    let differing = zip(bytes, Array(second)).enumerated().filter { $0.element.0 != $0.element.1 }
    guard differing.count == 3,
      let red = differing.first(where: { $0.element == (1, 4) })?.offset,
      let green = differing.first(where: { $0.element == (2, 5) })?.offset,
      let blue = differing.first(where: { $0.element == (3, 6) })?.offset
    else { return nil }
    return Template(bytes: bytes, offsets: (red, green, blue))
  }()
}
