import BowTieModel
import Foundation

extension UUID {
  /// The text `uuidString` gives ("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), written by
  /// hand: Foundation formats it through `snprintf`, which costs more than the rest of a
  /// seeded row's columns together.
  var text: String {
    withUnsafeBytes(of: uuid) { bytes in
      String(unsafeUninitializedCapacity: 36) { out in
        let digits: StaticString = "0123456789ABCDEF"
        var position = 0
        for (index, byte) in bytes.enumerated() {
          if index == 4 || index == 6 || index == 8 || index == 10 {
            out[position] = UInt8(ascii: "-")
            position += 1
          }
          out[position] = digits.utf8Start[Int(byte >> 4)]
          out[position + 1] = digits.utf8Start[Int(byte & 0x0F)]
          position += 2
        }
        return position
      }
    }
  }

  /// Parses the 8-4-4-4-12 hexadecimal form in either case, as `init(uuidString:)` does,
  /// without its `sscanf`, over the string's bytes in place: `history` parses one a wear.
  init?(text: String) {
    var text = text
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let parsed = text.withUTF8 { characters in
      characters.count == 36
        && withUnsafeMutableBytes(of: &bytes) { out in
          var index = 0
          var position = 0
          while position < 36 {
            if position == 8 || position == 13 || position == 18 || position == 23 {
              guard characters[position] == UInt8(ascii: "-") else { return false }
              position += 1
              continue
            }
            guard let high = Self.nibble(characters[position]),
              let low = Self.nibble(characters[position + 1])
            else { return false }
            out[index] = high << 4 | low
            index += 1
            position += 2
          }
          return true
        }
    }
    guard parsed else { return nil }
    self.init(uuid: bytes)
  }

  private static func nibble(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
