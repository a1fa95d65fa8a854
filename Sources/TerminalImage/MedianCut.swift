import ImageCodecs

/// A palette chosen for one image by median cut, for sixel, whose terminals hold a few
/// hundred color registers: the fixed 256-color palette turns a red tie's shading into
/// bands of orange and pink, an adaptive one keeps it red.
///
/// Colors are first counted at 5 bits a channel (32,768 buckets); the box of buckets with
/// the widest spread of a channel is split at its pixel-weighted median until there are
/// `maximumColors` boxes or none can be split. Each box's color is its pixels' average.
/// Sorting is by bucket number on equal values, so the same image always gives the
/// same palette.
public struct MedianCutPalette: Sendable {
  /// The palette's colors.
  public let colors: [RGB]
  /// For each 15-bit bucket (`r>>3 << 10 | g>>3 << 5 | b>>3`), its palette index, or -1
  /// for a color the image does not have.
  let indexOfBucket: [Int16]

  /// The palette for `pixels` (nil entries are transparent and not counted).
  public init(_ pixels: [RGB?], maximumColors: Int = 256) {
    precondition((1...Int(Int16.max)).contains(maximumColors))
    var counts = [Int](repeating: 0, count: 32_768)
    var sums = [Int](repeating: 0, count: 32_768 * 3)
    for case let color? in pixels {
      let bucket = Self.bucket(color)
      counts[bucket] += 1
      sums[bucket * 3] += Int(color.red)
      sums[bucket * 3 + 1] += Int(color.green)
      sums[bucket * 3 + 2] += Int(color.blue)
    }
    var boxes: [[Int]] = [counts.indices.filter { counts[$0] > 0 }]
    if boxes[0].isEmpty { boxes = [] }
    func channel(_ bucket: Int, _ shift: Int) -> Int { (bucket >> shift) & 31 }
    while boxes.count < maximumColors {
      // The box with the widest channel; ties to the first box and the red channel.
      var best: (box: Int, shift: Int, spread: Int)?
      for (index, box) in boxes.enumerated() where box.count > 1 {
        for shift in [10, 5, 0] {
          let values = box.map { channel($0, shift) }
          let spread = (values.max() ?? 0) - (values.min() ?? 0)
          if spread > (best?.spread ?? 0) { best = (index, shift, spread) }
        }
      }
      guard let best else { break }
      let sorted = boxes[best.box].sorted {
        (channel($0, best.shift), $0) < (channel($1, best.shift), $1)
      }
      let total = sorted.reduce(0) { $0 + counts[$1] }
      var running = 0
      var cut = 1
      for (position, bucket) in sorted.enumerated().dropLast() {
        running += counts[bucket]
        cut = position + 1
        if running * 2 >= total { break }
      }
      boxes[best.box] = Array(sorted[..<cut])
      boxes.append(Array(sorted[cut...]))
    }
    var index = [Int16](repeating: -1, count: 32_768)
    colors = boxes.enumerated().map { number, box in
      var red = 0
      var green = 0
      var blue = 0
      var count = 0
      for bucket in box {
        index[bucket] = Int16(number)
        red += sums[bucket * 3]
        green += sums[bucket * 3 + 1]
        blue += sums[bucket * 3 + 2]
        count += counts[bucket]
      }
      return RGB(
        UInt8((red + count / 2) / count), UInt8((green + count / 2) / count),
        UInt8((blue + count / 2) / count))
    }
    indexOfBucket = index
  }

  /// The palette index of a color that was among the image's pixels.
  public func index(of color: RGB) -> Int { Int(indexOfBucket[Self.bucket(color)]) }

  static func bucket(_ color: RGB) -> Int {
    Int(color.red >> 3) << 10 | Int(color.green >> 3) << 5 | Int(color.blue >> 3)
  }
}
