import Foundation
import PropertyLists

// The classes a color archive may name, each reading (and UIKit's writing) the keys that
// framework's class archives, as public descriptions give them (docs/color-archives.md):
// UIKit's `UIColor`, AppKit's `NSColor` with the `NSColorSpace` and `NSMutableData` a color
// in a custom color space holds, and bowties' own `TieColor` of before.

/// UIKit's `UIColor` in an archive: what bowties writes, and what the app's store holds.
///
/// Written as UIKit writes `UIColor(red:green:blue:alpha:)`: `UIColorComponentCount` 4,
/// `UIRed`, `UIGreen`, `UIBlue` and `UIAlpha` as 32-bit floats, each `-Double` key beside
/// its float when the float loses precision, `NSRGB` as ASCII text ("%.3g" each, the
/// alpha only when it is not 1, no NUL), and `NSColorSpace` 2 (device RGB); `$classes`
/// `[UIColor, NSObject]` with `$classhints [NSColor]`.
///
/// Read: RGB colors (`UIColorComponentCount` 4) and greys (2, `UIWhite`), system colors
/// (which add `UISystemColorName`), each component from its `-Double` key when there is
/// one. Refused: dynamic colors (any `UIDynamic…` key: catalog, trait-dependent and
/// modified colors), a system color without components, a missing component.
final class UIColorArchive: NSObject, NSSecureCoding, StableArchiveName {
  static let archivedClassName = "UIColor"
  static var archivedClassHints: [String] { ["NSColor"] }
  static var supportsSecureCoding: Bool { true }

  let color: TieColor

  init(_ color: TieColor) {
    self.color = color
  }

  func encode(with coder: NSCoder) {
    coder.encode(Int32(4), forKey: "UIColorComponentCount")
    for (key, value) in [
      ("UIRed", color.red), ("UIGreen", color.green), ("UIBlue", color.blue),
      ("UIAlpha", color.alpha),
    ] {
      coder.encode(Float(value), forKey: key)
      if Double(Float(value)) != value { coder.encode(value, forKey: key + "-Double") }
    }
    let text = ColorText.rgb(color)
    text.withUnsafeBufferPointer {
      coder.encodeBytes($0.baseAddress, length: $0.count, forKey: "NSRGB")
    }
    coder.encode(2, forKey: "NSColorSpace")
  }

  init?(coder: NSCoder) {
    let dynamic =
      coder.firstKeyedArchiveKey(withPrefix: "UIDynamic")
      ?? ["UIDynamicCatalogName", "UIDynamicModifiedBaseColor"].first {
        coder.containsValue(forKey: $0)
      }
    if let dynamic {
      ColorRefusal.report(
        coder, "it is a dynamic color (\(dynamic)), which changes with the device's settings")
      return nil
    }
    var systemName: String?
    if coder.containsValue(forKey: "UISystemColorName") {
      guard let name = coder.decodeObject(of: NSString.self, forKey: "UISystemColorName") else {
        return nil
      }
      systemName = name as String
    }
    guard coder.containsValue(forKey: "UIColorComponentCount") else {
      if let systemName {
        ColorRefusal.report(
          coder, "the system color \(systemName) has no components: they depend on the device")
        return nil
      }
      ColorRefusal.report(coder, "key \"UIColorComponentCount\" is missing")
      return nil
    }
    let count = coder.decodeInt32(forKey: "UIColorComponentCount")
    if coder.containsValue(forKey: "NSColorSpace") {
      _ = coder.decodeInteger(forKey: "NSColorSpace")
    }
    switch count {
    case 4:
      guard let red = Self.component("UIRed", coder), let green = Self.component("UIGreen", coder),
        let blue = Self.component("UIBlue", coder), let alpha = Self.component("UIAlpha", coder),
        ColorText.check("NSRGB", counts: 3...4, coder)
      else { return nil }
      color = TieColor(red: red, green: green, blue: blue, alpha: alpha)
    case 2:
      guard let white = Self.component("UIWhite", coder),
        let alpha = Self.component("UIAlpha", coder),
        ColorText.check("NSWhite", counts: 1...2, coder)
      else { return nil }
      color = TieColor(red: white, green: white, blue: white, alpha: alpha)
    default:
      ColorRefusal.report(
        coder, "UIColorComponentCount is \(count), not 4 (RGB) or 2 (grey)")
      return nil
    }
  }

  /// A component from its `-Double` key when there is one, else from its 32-bit float.
  private static func component(_ key: String, _ coder: NSCoder) -> Double? {
    let value: Double
    if coder.containsValue(forKey: key + "-Double") {
      value = coder.decodeDouble(forKey: key + "-Double")
    } else if coder.containsValue(forKey: key) {
      value = Double(coder.decodeFloat(forKey: key))
    } else {
      return ColorRefusal.refuse(coder, "key \"\(key)\" is missing")
    }
    guard value.isFinite else {
      return ColorRefusal.refuse(coder, "\(key) is \(value), not a finite number")
    }
    return value
  }
}

/// AppKit's `NSColor` in an archive, read only.
///
/// `NSColorSpace` 1 or 2 (calibrated or device RGB) with `NSRGB`, ASCII numbers ending in
/// a NUL ("0.5 0.25 1\0", the alpha fourth when there is one); 3 or 4 (calibrated or device
/// white) with `NSWhite`. A color in a custom color space, as AppKit writes sRGB colors,
/// adds `NSComponents` (the components with the alpha last) and `NSCustomColorSpace` (an
/// `NSColorSpace` holding the space's ICC profile); `NSComponents` then wins over `NSRGB`,
/// read as sRGB: the profile is checked to be data, not applied. Refused: catalog colors
/// (`NSColorSpace` 6), CMYK (5), patterns and any other space, a missing component.
final class NSColorArchive: NSObject, NSSecureCoding, StableArchiveName {
  static let archivedClassName = "NSColor"
  static var supportsSecureCoding: Bool { true }

  let color: TieColor

  func encode(with coder: NSCoder) {
    // bowties writes UIKit's form only; an NSColorArchive is only ever decoded.
    coder.failWithError(ColorRefusal.error("bowties writes colors as UIColor"))
  }

  init?(coder: NSCoder) {
    guard coder.containsValue(forKey: "NSColorSpace") else {
      ColorRefusal.report(coder, "key \"NSColorSpace\" is missing")
      return nil
    }
    let space = coder.decodeInteger(forKey: "NSColorSpace")
    if coder.containsValue(forKey: "NSComponents")
      || coder.containsValue(forKey: "NSCustomColorSpace")
    {
      guard
        coder.decodeObject(of: ColorSpaceArchive.self, forKey: "NSCustomColorSpace") != nil
      else {
        ColorRefusal.report(coder, "NSComponents come without their NSCustomColorSpace")
        return nil
      }
      guard let numbers = ColorText.numbers("NSComponents", coder) else { return nil }
      switch numbers.count {
      case 4:
        color = TieColor(red: numbers[0], green: numbers[1], blue: numbers[2], alpha: numbers[3])
      case 2:
        color = TieColor(red: numbers[0], green: numbers[0], blue: numbers[0], alpha: numbers[1])
      default:
        ColorRefusal.report(
          coder, "NSComponents holds \(numbers.count) numbers, not 4 (RGB) or 2 (grey)")
        return nil
      }
      return
    }
    switch space {
    case 1, 2:
      guard let numbers = ColorText.numbers("NSRGB", coder) else { return nil }
      guard numbers.count == 3 || numbers.count == 4 else {
        ColorRefusal.report(coder, "NSRGB holds \(numbers.count) numbers, not 3 or 4")
        return nil
      }
      color = TieColor(
        red: numbers[0], green: numbers[1], blue: numbers[2],
        alpha: numbers.count == 4 ? numbers[3] : 1)
    case 3, 4:
      guard let numbers = ColorText.numbers("NSWhite", coder) else { return nil }
      guard numbers.count == 1 || numbers.count == 2 else {
        ColorRefusal.report(coder, "NSWhite holds \(numbers.count) numbers, not 1 or 2")
        return nil
      }
      color = TieColor(
        red: numbers[0], green: numbers[0], blue: numbers[0],
        alpha: numbers.count == 2 ? numbers[1] : 1)
    case 5:
      ColorRefusal.report(coder, "it is a CMYK color, which bowties does not convert")
      return nil
    case 6:
      let names = ["NSCatalogName", "NSColorName"].compactMap { key in
        coder.containsValue(forKey: key)
          ? coder.decodeObject(of: NSString.self, forKey: key) as String? : nil
      }
      ColorRefusal.report(
        coder,
        "it is a catalog color\(names.isEmpty ? "" : " (\(names.joined(separator: " ")))"), "
          + "which depends on the system's color lists")
      return nil
    default:
      ColorRefusal.report(coder, "NSColorSpace \(space) is not an RGB or grey space")
      return nil
    }
  }
}

/// AppKit's `NSColorSpace` as a custom-space color holds it: its ICC profile under `NSICC`
/// (an `NSMutableData`, or data) and its number under `NSID`. Allowed only inside a color.
final class ColorSpaceArchive: NSObject, NSSecureCoding, StableArchiveName {
  static let archivedClassName = "NSColorSpace"
  static var supportsSecureCoding: Bool { true }

  func encode(with coder: NSCoder) {
    coder.failWithError(ColorRefusal.error("bowties writes no color spaces"))
  }

  init?(coder: NSCoder) {
    if coder.containsValue(forKey: "NSID") { _ = coder.decodeInteger(forKey: "NSID") }
    if coder.containsValue(forKey: "NSICC") {
      guard coder.decodeObject(of: [MutableDataArchive.self, NSData.self], forKey: "NSICC") != nil
      else { return nil }
    }
  }
}

/// `NSMutableData` in an archive: its bytes under `NS.data`. Allowed only inside a color
/// space, for its ICC profile.
final class MutableDataArchive: NSObject, NSSecureCoding, StableArchiveName {
  static let archivedClassName = "NSMutableData"
  static var supportsSecureCoding: Bool { true }

  func encode(with coder: NSCoder) {
    coder.failWithError(ColorRefusal.error("bowties writes no data objects"))
  }

  init?(coder: NSCoder) {
    guard coder.containsValue(forKey: "NS.data") else {
      ColorRefusal.report(coder, "key \"NS.data\" is missing")
      return nil
    }
    guard coder.decodedBytes(forKey: "NS.data") != nil else { return nil }
  }
}

/// bowties' own color class of before, `TieColor` with integer `red`, `green` and `blue`
/// 0…255: read, so that stores and backups made before still open; never written.
final class TieColorArchive: NSObject, NSSecureCoding, StableArchiveName {
  static let archivedClassName = "TieColor"
  static var supportsSecureCoding: Bool { true }

  let color: TieColor

  init(_ color: TieColor) {
    self.color = color
  }

  /// Encodes the 8-bit components under "red", "green" and "blue": only tests write one,
  /// to make the archives of before.
  func encode(with coder: NSCoder) {
    coder.encode(Int(color.red8), forKey: "red")
    coder.encode(Int(color.green8), forKey: "green")
    coder.encode(Int(color.blue8), forKey: "blue")
  }

  /// Fails unless all three components are present integers in 0...255.
  init?(coder: NSCoder) {
    guard let red = Self.component("red", from: coder),
      let green = Self.component("green", from: coder),
      let blue = Self.component("blue", from: coder)
    else { return nil }
    color = TieColor(red8: red, green8: green, blue8: blue)
  }

  private static func component(_ key: String, from coder: NSCoder) -> UInt8? {
    guard coder.containsValue(forKey: key) else {
      return ColorRefusal.refuse(coder, "key \"\(key)\" is missing")
    }
    let value = coder.decodeInt64(forKey: key)
    guard let component = UInt8(exactly: value) else {
      return ColorRefusal.refuse(coder, "value \(value) for key \"\(key)\" is out of range 0...255")
    }
    return component
  }
}

/// How a color class says why it refuses its archive.
enum ColorRefusal {
  static func error(_ reason: String) -> CocoaError {
    CocoaError(.coderReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: reason])
  }

  /// Reports why the coded class refuses its values. `failWithError` is how a coded class
  /// says why; under `.raiseException` it would abort on Linux, so it is called only when
  /// the coder asks for errors.
  static func report(_ coder: NSCoder, _ reason: String) {
    if coder.decodingFailurePolicy == .setErrorAndReturn { coder.failWithError(error(reason)) }
  }

  /// Reports `reason` and returns nil, for `return ColorRefusal.refuse(…)` in a function
  /// that reads one value.
  static func refuse<Value>(_ coder: NSCoder, _ reason: String) -> Value? {
    report(coder, reason)
    return nil
  }
}

/// The components AppKit and UIKit write as ASCII text: `NSRGB`, `NSWhite`, `NSComponents`.
enum ColorText {
  /// The numbers of the text under `key`: decimal numbers separated by spaces, ending in a
  /// NUL as AppKit writes them or not as UIKit does. Nil, with the reason reported, for
  /// anything else.
  static func numbers(_ key: String, _ coder: NSCoder) -> [Double]? {
    guard coder.containsValue(forKey: key) else {
      return ColorRefusal.refuse(coder, "key \"\(key)\" is missing")
    }
    guard var bytes = coder.decodedBytes(forKey: key) else { return nil }
    if bytes.last == 0 { bytes.removeLast() }
    let words = bytes.split(separator: UInt8(ascii: " "))
    let numbers = words.compactMap { word -> Double? in
      guard word.allSatisfy({ (0x21..<0x7F).contains($0) }),
        let number = Double(String(decoding: word, as: UTF8.self)), number.isFinite
      else { return nil }
      return number
    }
    guard !words.isEmpty, numbers.count == words.count else {
      return ColorRefusal.refuse(coder, "\(key) is not ASCII numbers separated by spaces")
    }
    return numbers
  }

  /// Whether the text under `key`, when there is one, holds one of `counts` numbers: what a
  /// UIKit archive's `NSRGB` or `NSWhite` must be, though UIKit reads the floats instead.
  /// Checked for their form, not converted: the floats are what is read, and converting
  /// text with the C library is among the dearest steps of a color's decoding.
  static func check(_ key: String, counts: ClosedRange<Int>, _ coder: NSCoder) -> Bool {
    guard coder.containsValue(forKey: key) else { return true }
    guard var bytes = coder.decodedBytes(forKey: key) else { return false }
    if bytes.last == 0 { bytes.removeLast() }
    let words = bytes.split(separator: UInt8(ascii: " "))
    guard !words.isEmpty, words.allSatisfy(isDecimalNumber) else {
      ColorRefusal.report(coder, "\(key) is not ASCII numbers separated by spaces")
      return false
    }
    guard counts.contains(words.count) else {
      ColorRefusal.report(coder, "\(key) holds \(words.count) numbers")
      return false
    }
    return true
  }

  /// Whether `word` is a decimal number as "%g" writes one: an optional minus, digits with
  /// an optional point, an optional exponent (`1e-05`).
  static func isDecimalNumber(_ word: ArraySlice<UInt8>) -> Bool {
    var rest = word[...]
    if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
    let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    let mantissa = rest.prefix { isDigit($0) || $0 == UInt8(ascii: ".") }
    guard mantissa.contains(where: isDigit), mantissa.filter({ $0 == UInt8(ascii: ".") }).count <= 1
    else { return false }
    rest = rest.dropFirst(mantissa.count)
    guard let e = rest.first else { return true }
    guard e == UInt8(ascii: "e") || e == UInt8(ascii: "E") else { return false }
    rest = rest.dropFirst()
    if let sign = rest.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
      rest = rest.dropFirst()
    }
    return !rest.isEmpty && rest.allSatisfy(isDigit)
  }

  /// `NSRGB` as UIKit writes it: "%.3g %.3g %.3g", and a fourth for an alpha other than 1.
  static func rgb(_ color: TieColor) -> [UInt8] {
    var text: [UInt8] = []
    text.reserveCapacity(48)
    text += number(color.red)
    text.append(0x20)
    text += number(color.green)
    text.append(0x20)
    text += number(color.blue)
    if color.alpha != 1 {
      text.append(0x20)
      text += number(color.alpha)
    }
    return text
  }

  /// One component in "%.3g". An 8-bit value's (what most colors are, and a seed writes
  /// 100,000 of) is worked out in integers: the C library's formatting is the dearest step
  /// of writing a color (docs/performance.md, "Colors").
  static func number(_ component: Double) -> [UInt8] {
    let scaled = (component * 255).rounded()
    if scaled >= 0, scaled <= 255, Double(Int(scaled)) / 255 == component {
      return eightBitNumbers[Int(scaled)]
    }
    return formatted(component)
  }

  private static let eightBitNumbers = (0...255).map(eightBitNumber)

  /// "%.3g" of `value / 255`, for `value` in 0...255, without the C library: three
  /// significant digits rounded to the nearest, trailing zeros dropped. None of these 256
  /// quotients lies on a rounding halfway point (that would take 51 to divide the value),
  /// so rounding the exact quotient gives what "%.3g" gives for the nearest double, as
  /// ShortcutTests checks for each.
  static func eightBitNumber(_ value: Int) -> [UInt8] {
    guard value > 0 else { return [UInt8(ascii: "0")] }
    guard value < 255 else { return [UInt8(ascii: "1")] }
    // value / 255 is at least 0.1 from 26 on, at least 0.01 from 3 on, else at least 0.001.
    let zeros = value >= 26 ? 0 : value >= 3 ? 1 : 2
    let scale = [1_000, 10_000, 100_000][zeros]
    // The three digits, rounded to the nearest: (2 × value × scale + 255) / 510.
    var digits = (2 * value * scale + 255) / 510
    var kept = 3
    while digits % 10 == 0 {
      digits /= 10
      kept -= 1
    }
    var text: [UInt8] = [UInt8(ascii: "0"), UInt8(ascii: ".")]
    text.reserveCapacity(2 + zeros + kept)
    text.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: zeros))
    var divisor = [1, 10, 100][kept - 1]
    while divisor > 0 {
      text.append(UInt8(ascii: "0") + UInt8(digits / divisor % 10))
      divisor /= 10
    }
    return text
  }

  /// "%.3g", as UIKit's `-[NSString stringWithFormat:]` writes it.
  static func formatted(_ component: Double) -> [UInt8] {
    var buffer = [CChar](repeating: 0, count: 32)
    let length = withVaList([component]) { arguments in
      buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, 32, "%.3g", arguments) }
    }
    return buffer.prefix(Int(max(0, min(length, 31)))).map { UInt8(bitPattern: $0) }
  }
}
