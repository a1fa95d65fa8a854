import Foundation
import SeededRandom
import Testing
import TextOutput

/// JSONWriter writes what JSONEncoder writes, byte for byte, for every kind of value.
@Suite("JSON writer")
struct JSONWriterTests {
  /// Every kind of field, in the order of their keys' bytes.
  struct Sample: JSONObject, Equatable {
    var flag: Bool
    var inner: Inner?
    var number: Int
    var omitted: String?
    var optionalNumber: Double?
    var real: Double
    var text: String
    var Upper: String

    func writeFields(to fields: inout some JSONFields) throws {
      // Upper-case keys sort first, by their bytes, as JSONEncoder's .sortedKeys has them.
      try fields.field("Upper", Upper)
      try fields.field("flag", flag)
      try fields.field("inner", inner)
      try fields.field("number", number)
      try fields.field("omitted", omitted, omittingNil: true)
      try fields.field("optionalNumber", optionalNumber)
      try fields.field("real", real)
      try fields.field("text", text)
    }

    func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
  }

  struct Inner: JSONObject, Equatable {
    var b: String?
    var z: Int

    func writeFields(to fields: inout some JSONFields) throws {
      try fields.field("b", b)
      try fields.field("z", z)
    }

    func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
  }

  struct Empty: JSONObject {
    func writeFields(to fields: inout some JSONFields) throws {}
    func encode(to encoder: any Encoder) throws { try encodeFields(to: encoder) }
  }

  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  @Test("an object: JSONEncoder's bytes, for strings, numbers, nulls and nested objects")
  func objects() throws {
    var random = SplitMix64(seed: 2026)
    for _ in 0..<2_000 {
      let sample = Sample.random(&random)
      var writer = JSONWriter()
      try writer.object(sample)
      let expected = try Self.encoder().encode(sample)
      #expect(
        String(decoding: writer.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }
  }

  @Test("each character a string can hold: escaped as JSONEncoder escapes it")
  func everyASCIICharacter() throws {
    let scalars: [Unicode.Scalar] =
      (0..<0x80).map { Unicode.Scalar(UInt8($0)) } + [
        "\u{80}", "\u{A0}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFF}", "\u{1F600}", "é",
        "\u{301}",
      ]
    for scalar in scalars {
      let sample = Sample(
        flag: true, inner: nil, number: 0, omitted: nil, optionalNumber: nil, real: 0,
        text: "a\(scalar)b\(scalar)", Upper: String(scalar))
      var writer = JSONWriter()
      try writer.object(sample)
      let expected = String(decoding: try Self.encoder().encode(sample), as: UTF8.self)
      #expect(
        String(decoding: writer.bytes, as: UTF8.self) == expected,
        "U+\(String(scalar.value, radix: 16))")
    }
  }

  @Test("an array at any depth: JSONEncoder's array, indented into place", arguments: 0..<4)
  func arrays(depth: Int) throws {
    var random = SplitMix64(seed: UInt64(depth))
    for count in [0, 1, 2, 7] {
      let samples = (0..<count).map { _ in Sample.random(&random) }
      var array = JSONArrayWriter(depth: depth)
      var written: [UInt8] = []
      for sample in samples {
        try array.append(sample)
        array.flush(to: &written)
      }
      array.finish()
      array.flush(to: &written)
      // Indented as a nested array is: the blank line of an empty one stays empty.
      let indent = String(repeating: "  ", count: depth)
      let expected = String(decoding: try Self.encoder().encode(samples), as: UTF8.self)
        .split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        .map { $0 == 0 || $1.isEmpty ? String($1) : indent + $1 }.joined(separator: "\n")
      #expect(String(decoding: written, as: UTF8.self) == expected)
    }
  }

  @Test("an object without fields: a blank line between its braces, as JSONEncoder writes it")
  func emptyObject() throws {
    var writer = JSONWriter()
    try writer.object(Empty())
    #expect(writer.bytes == Array(try Self.encoder().encode(Empty())))
  }

  @Test("a number JSON cannot hold is refused, as JSONEncoder refuses it")
  func nonFinite() throws {
    var random = SplitMix64(seed: 1)
    for value in [Double.nan, .infinity, -.infinity] {
      var sample = Sample.random(&random)
      sample.real = value
      var writer = JSONWriter()
      #expect(throws: EncodingError.self) { try writer.object(sample) }
      #expect(throws: EncodingError.self) { try Self.encoder().encode(sample) }
    }
  }
}

extension JSONWriterTests.Sample {
  static func random(_ random: inout SplitMix64) -> Self {
    Self(
      flag: random.next() & 1 == 0,
      inner: random.next() % 3 == 0
        ? nil : .init(b: random.next() & 1 == 0 ? nil : .random(&random), z: .random(&random)),
      number: .random(&random),
      omitted: random.next() & 1 == 0 ? nil : .random(&random),
      optionalNumber: random.next() & 1 == 0 ? nil : .random(&random),
      real: .random(&random),
      text: .random(&random),
      Upper: .random(&random))
  }
}

extension Int {
  static func random(_ random: inout SplitMix64) -> Int {
    switch random.next() % 4 {
    case 0: [Int.min, .max, 0, -1, 1, 10, -10][Int(random.next() % 7)]
    case 1: Int(truncatingIfNeeded: random.next())
    default: Int(truncatingIfNeeded: random.next() % 2_000) - 1_000
    }
  }
}

extension Double {
  static func random(_ random: inout SplitMix64) -> Double {
    switch random.next() % 4 {
    case 0:
      return [
        0, -0.0, 1, 0.5, 4.5, 1e16, 1e15, 1e-7, 0.1, .greatestFiniteMagnitude,
        .leastNonzeroMagnitude, 123_456.789,
      ][Int(random.next() % 12)]
    case 1:
      return Double(random.next() % 11) / 2
    default:
      while true {
        let value = Double(bitPattern: random.next())
        if value.isFinite { return value }
      }
    }
  }
}

extension String {
  /// Text from a mix of ASCII, control characters, quotes, slashes and wider characters.
  static func random(_ random: inout SplitMix64) -> String {
    let pool: [Unicode.Scalar] = [
      "a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\r", "\u{0}", "\u{1}", "\u{8}", "\u{C}",
      "\u{1B}", "\u{1F}", "\u{7F}", "é", "\u{A0}", "\u{2028}", "€", "\u{1F600}", "\u{301}",
    ]
    let count = Int(random.next() % 12)
    return String(
      String.UnicodeScalarView(
        (0..<count).map { _ in pool[Int(random.next() % UInt64(pool.count))] }))
  }
}
