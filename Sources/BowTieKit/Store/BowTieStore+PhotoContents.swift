import BowTieModel
import Foundation

extension BowTieStore {
  /// The bytes of the photo kept outside its row as `name`, or nil when it is missing,
  /// damaged, or `name` is not a photo's name: for describing a photo, which needs no more.
  @Sendable func photoContents(_ name: String) -> Data? {
    try? engine.readPhoto(name, expectedSize: nil, tie: name)
  }
}
