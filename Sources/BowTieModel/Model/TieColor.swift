import Foundation

/// A bow tie's tint, as UIKit's `UIColor(red:green:blue:alpha:)` holds one: red, green,
/// blue and alpha as numbers, 0 to 1 in sRGB, kept exactly as an archive gave them.
///
/// A color read from an archive written by UIKit or AppKit keeps its components as they
/// were stored (a 32-bit float's value, or an extended-range 1.00044), so that storing it
/// again changes nothing; the 8-bit values people read and type (``hex``, `--json`, the
/// seed format) are derived from them, rounded and clamped.
public struct TieColor: Hashable, Sendable, CustomStringConvertible {
  /// The red component: 0 to 1, or beyond in an extended-range color.
  public let red: Double
  /// The green component.
  public let green: Double
  /// The blue component.
  public let blue: Double
  /// The opacity: 1 is opaque.
  public let alpha: Double

  /// A color from its components, as `UIColor(red:green:blue:alpha:)` takes them.
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// A color from 8-bit components: each is `value / 255`.
  public init(red8: UInt8, green8: UInt8, blue8: UInt8, alpha8: UInt8 = 255) {
    self.init(
      red: Double(red8) / 255, green: Double(green8) / 255, blue: Double(blue8) / 255,
      alpha: Double(alpha8) / 255)
  }

  /// The red component in 8 bits: `red × 255` rounded to the nearest, clamped to 0…255.
  public var red8: UInt8 { Self.eightBit(red) }
  /// The green component in 8 bits.
  public var green8: UInt8 { Self.eightBit(green) }
  /// The blue component in 8 bits.
  public var blue8: UInt8 { Self.eightBit(blue) }
  /// The opacity in 8 bits.
  public var alpha8: UInt8 { Self.eightBit(alpha) }

  /// Whether the color is opaque in 8 bits: what decides whether an alpha is shown.
  public var isOpaque: Bool { alpha8 == 255 }

  /// Whether every component is a finite number, as a stored color's must be.
  public var isFinite: Bool {
    red.isFinite && green.isFinite && blue.isFinite && alpha.isFinite
  }

  /// `component × 255`, rounded to the nearest integer (halves away from zero) and
  /// clamped: 0.34117645 (a 32-bit float's 87/255) is 87, an extended-range 1.00044 is 255.
  static func eightBit(_ component: Double) -> UInt8 {
    let scaled = (component * 255).rounded()
    // NaN fails both comparisons and lands on 0; a stored color is never NaN.
    guard scaled > 0 else { return 0 }
    guard scaled < 255 else { return 255 }
    return UInt8(scaled)
  }

  /// The color as `#RRGGBB` with uppercase digits, e.g. `#EF3024`, with the alpha after
  /// (`#EF302480`) when the color is not opaque.
  public var hex: String {
    let digits = Array("0123456789ABCDEF")
    let bytes = isOpaque ? [red8, green8, blue8] : [red8, green8, blue8, alpha8]
    return "#" + String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
  }

  /// `TieColor(#EF3024)`, for logs and test output.
  public var description: String { "TieColor(\(hex))" }
}
