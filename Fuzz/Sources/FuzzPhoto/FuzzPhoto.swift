// Bytes as a photo on its way in (a PNG or JPEG decoded whole, a PDF rasterized by
// MuPDF, anything else refused) and as a stored photo drawn by `show` (its header, its
// EXIF orientation read by libexif, a scaled decode by libjpeg-turbo).
//
// Checks that nothing traps or leaks, that every refusal is an ImageError with a message,
// and that a photo the intake accepts is one `show` can draw: its description is what its
// header says, and it decodes, whole and scaled, to that size.
import BowTieKit
import BowTieModel
import Foundation
import FuzzSupport
import ImageCodecs

func check(_ data: Data) {
  do {
    // A PDF at one pixel a point: MuPDF's parser and renderer are what is fuzzed, and the
    // 3× of a real seed only makes each run slower.
    let checked = try PhotoIntake.check(data, pdfScale: 1)
    let description = checked.description
    expect(
      PhotoDescription(of: checked.data) == description,
      "the header says \(String(describing: PhotoDescription(of: checked.data))), the check \(description)"
    )
    let whole = must("decoding an accepted photo") { try ImageDecoder.decode(checked.data) }
    expect(
      whole.width == description.width && whole.height == description.height,
      "decoded \(whole.width)×\(whole.height), described \(description.width)×\(description.height)"
    )
    let small = must("decoding an accepted photo scaled") {
      try ImageDecoder.decode(checked.data) { info in
        (max(1, info.width / 8), max(1, info.height / 8))
      }
    }
    expect(
      small.width >= description.width / 8 && small.height >= description.height / 8,
      "scaled to \(small.width)×\(small.height), smaller than asked")
  } catch {
    expect(!error.description.isEmpty, "an image error without a message: \(error)")
  }
  // As `show` reads what another tool may have stored: whatever it is, an error or an image.
  do {
    let info = try ImageDecoder.info(data)
    let image = try ImageDecoder.decode(data) { _ in (1, 1) }
    expect(image.width > 0 && image.height > 0, "an empty image from \(info)")
  } catch {
    expect(!error.description.isEmpty, "an image error without a message: \(error)")
  }
}
