import Foundation
import ImageCodecs

/// The xterm 256-color palette, for terminals without truecolor.
///
/// Only colors 16–255 are used: their values are fixed by xterm's formula (a 6×6×6 cube
/// and 24 greys) and shared by every 256-color terminal, while 0–15 follow the user's
/// theme, so a photo mapped onto them would change color from one terminal to the next.
public enum Palette256 {
  /// The cube's six levels per channel.
  static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

  /// The color of palette index `index` (16–255).
  public static func color(_ index: Int) -> RGB {
    precondition((16...255).contains(index))
    if index >= 232 {
      let grey = UInt8(8 + 10 * (index - 232))
      return RGB(grey, grey, grey)
    }
    let cube = index - 16
    return RGB(
      UInt8(cubeLevels[cube / 36]), UInt8(cubeLevels[(cube / 6) % 6]), UInt8(cubeLevels[cube % 6]))
  }

  /// The palette index (16–255) that looks nearest to `color`: the smallest distance in
  /// OKLab, a perceptual color space. Plain RGB distance turns the red tie (#EF3024) orange
  /// (#FF5F00 is nearer in RGB than #FF0000), which no one would call a near match.
  public static func nearest(_ color: RGB) -> Int {
    let target = OKLab(color)
    var best = 16
    var bestDistance = Double.infinity
    for (offset, candidate) in labs.enumerated() {
      let distance = target.distanceSquared(to: candidate)
      if distance < bestDistance {
        bestDistance = distance
        best = 16 + offset
      }
    }
    return best
  }

  /// Colors 16–255 in OKLab, computed once.
  private static let labs: [OKLab] = (16...255).map { OKLab(color($0)) }

}

/// Björn Ottosson's OKLab: distances in it follow how different colors look.
struct OKLab {
  var l: Double
  var a: Double
  var b: Double

  init(_ color: RGB) {
    let r = Self.linear[Int(color.red)]
    let g = Self.linear[Int(color.green)]
    let b = Self.linear[Int(color.blue)]
    let long = cbrt(0.412_221_470_8 * r + 0.536_332_536_3 * g + 0.051_445_992_9 * b)
    let medium = cbrt(0.211_903_498_2 * r + 0.680_699_545_1 * g + 0.107_396_956_6 * b)
    let short = cbrt(0.088_302_461_9 * r + 0.281_718_837_6 * g + 0.629_978_700_5 * b)
    l = 0.210_454_255_3 * long + 0.793_617_785_0 * medium - 0.004_072_046_8 * short
    a = 1.977_998_495_1 * long - 2.428_592_205_0 * medium + 0.450_593_709_9 * short
    self.b = 0.025_904_037_1 * long + 0.782_771_766_2 * medium - 0.808_675_766_0 * short
  }

  func distanceSquared(to other: OKLab) -> Double {
    (l - other.l) * (l - other.l) + (a - other.a) * (a - other.a) + (b - other.b) * (b - other.b)
  }

  /// sRGB's transfer function undone, per 8-bit value.
  static let linear: [Double] = (0...255).map { value in
    let c = Double(value) / 255
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
  }
}
