import Foundation

/// A bow tie's tint: an immutable 8-bit RGB color, archived like an Apple `NSSecureCoding`
/// class.
public final class TieColor: NSObject, NSSecureCoding, Sendable {
  /// The class name written into archives. Fixed on purpose: it does not depend on the
  /// Swift module name, so renaming the module cannot orphan stored colors.
  public static let archivedClassName = "TieColor"

  /// Always true: `init?(coder:)` validates every value it reads.
  public static var supportsSecureCoding: Bool { true }

  /// The red component, 0...255.
  public let red: UInt8
  /// The green component, 0...255.
  public let green: UInt8
  /// The blue component, 0...255.
  public let blue: UInt8

  /// Creates a color from its 8-bit components.
  public init(red: UInt8, green: UInt8, blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
    super.init()
  }

  /// The color as `#RRGGBB` with uppercase digits, e.g. `#EF3024`.
  public var hex: String {
    let digits = Array("0123456789ABCDEF")
    let characters = [red, green, blue].flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }
    return "#" + String(characters)
  }

  /// Colors are equal when their components are.
  override public func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? TieColor else { return false }
    return red == other.red && green == other.green && blue == other.blue
  }

  /// Consistent with `isEqual(_:)`.
  override public var hash: Int {
    var hasher = Hasher()
    hasher.combine(red)
    hasher.combine(green)
    hasher.combine(blue)
    return hasher.finalize()
  }

  /// `TieColor(#EF3024)`, for logs and test output.
  override public var description: String { "TieColor(\(hex))" }

  // MARK: NSSecureCoding

  private enum Key {
    static let red = "red"
    static let green = "green"
    static let blue = "blue"
  }

  /// Encodes each component as an integer under "red", "green" and "blue".
  public func encode(with coder: NSCoder) {
    coder.encode(Int(red), forKey: Key.red)
    coder.encode(Int(green), forKey: Key.green)
    coder.encode(Int(blue), forKey: Key.blue)
  }

  /// Fails unless all three components are present integers in 0...255.
  public init?(coder: NSCoder) {
    guard let red = Self.component(Key.red, from: coder),
      let green = Self.component(Key.green, from: coder),
      let blue = Self.component(Key.blue, from: coder)
    else { return nil }
    self.red = red
    self.green = green
    self.blue = blue
    super.init()
  }

  private static func component(_ key: String, from coder: NSCoder) -> UInt8? {
    guard coder.containsValue(forKey: key) else { return nil }
    let value = coder.decodeInt64(forKey: key)
    guard let component = UInt8(exactly: value) else {
      // failWithError is how a coded class says why; under .raiseException it would abort
      // on Linux, so only report when the coder asks for errors.
      if coder.decodingFailurePolicy == .setErrorAndReturn {
        let reason = "value \(value) for key \"\(key)\" is out of range 0...255"
        coder.failWithError(
          CocoaError(.coderReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: reason]))
      }
      return nil
    }
    return component
  }
}

extension TieColor: StableArchiveName {}
