import Foundation

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
  override public class var allowedTopLevelClasses: [AnyClass] { [TieColor.self] }

  /// Registers a shared instance under ``name``; call once at startup. (`registeredName`
  /// exists so tests can register under a fresh name without touching the shared one.)
  public static func register(as registeredName: NSValueTransformerName = name) {
    let transformer = ColorAttributeTransformer()
    ValueTransformer.setValueTransformer(transformer, forName: registeredName)
  }

  /// Decodes a stored color archive.
  public func color(from data: Data) throws(ArchiveError) -> TieColor {
    let object = try unarchivedObject(from: data)
    guard let color = object as? TieColor else {
      // Unreachable while TieColor is the only allowed class; kept so this never traps.
      throw .classNotAllowed(String(describing: type(of: object)))
    }
    return color
  }

  /// Encodes a color as an archive for storage.
  public func data(from color: TieColor) throws(ArchiveError) -> Data {
    try archivedData(from: color)
  }
}
