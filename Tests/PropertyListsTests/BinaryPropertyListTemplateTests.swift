import Foundation
import Testing

@testable import PropertyLists

/// Templates write what the general writer writes, and read back only their own bytes.
@Suite struct BinaryPropertyListTemplateTests {
  static let document = PropertyListValue.dictionary([
    "$objects": .array([
      .string("$null"),
      .dictionary([
        "count": .integer(4), "float": .real32(0.25), "double": .real(0.1),
        "text": .data(Data("0.25 0.1".utf8)), "name": .string("fixed"), "flag": .bool(true),
      ]),
    ]),
    "$top": .dictionary(["root": .uid(1)]),
  ])
  static let root: [BinaryPropertyListTemplate.PathComponent] = [.key("$objects"), .index(1)]
  static let slots = ["float", "double", "text", "count", "flag"].map { root + [.key($0)] }

  /// `document` with these values at `slots`.
  static func document(_ values: [PropertyListValue]) -> PropertyListValue {
    guard case .dictionary(var top) = document, case .array(var objects)? = top["$objects"],
      case .dictionary(var fields) = objects[1]
    else { return .null }
    for (slot, value) in zip(["float", "double", "text", "count", "flag"], values) {
      fields[slot] = value
    }
    objects[1] = .dictionary(fields)
    top["$objects"] = .array(objects)
    return .dictionary(top)
  }

  static func randomValues(_ random: inout SystemRandomNumberGenerator) -> [PropertyListValue] {
    let textLength = Int.random(in: 0...300, using: &random)
    return [
      .real32(Float(bitPattern: UInt32.random(in: 0...UInt32.max, using: &random))),
      .real(Double.random(in: -1e6...1e6, using: &random)),
      .data(Data((0..<textLength).map { _ in UInt8.random(in: 0...255, using: &random) })),
      .integer(
        Bool.random(using: &random)
          ? Int64.random(in: 0...300, using: &random)
          : Int64.random(in: .min ... .max, using: &random)),
      .bool(Bool.random(using: &random)),
    ]
  }

  @Test func writesWhatTheWriterWritesAndReadsItBack() throws {
    let template = try #require(BinaryPropertyListTemplate(Self.document, slots: Self.slots))
    var random = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let values = Self.randomValues(&random)
      let expected = BinaryPropertyList.write(Self.document(values))
      let written = template.write(values)
      #expect(written == expected)
      let read = written.withUnsafeBytes { template.values(in: $0) }
      // NaN is not equal to itself: compare bit patterns through the writer.
      #expect(
        read.map { $0.map { BinaryPropertyList.write(.array([$0])) } }
          == values.map { BinaryPropertyList.write(.array([$0])) })
    }
  }

  @Test func readsNothingElse() throws {
    let template = try #require(BinaryPropertyListTemplate(Self.document, slots: Self.slots))
    let values: [PropertyListValue] = [
      .real32(0.5), .real(0.3), .data(Data("0.5 0.3".utf8)), .integer(7), .bool(false),
    ]
    let bytes = template.write(values)
    #expect(bytes.withUnsafeBytes { template.values(in: $0) } == values)
    // Every byte changed, every length cut, a byte added: either nil, or the values of
    // exactly the document the general writer writes for them.
    for offset in bytes.indices {
      for flip: UInt8 in [0x01, 0x80] {
        var changed = bytes
        changed[offset] ^= flip
        if let read = changed.withUnsafeBytes({ template.values(in: $0) }) {
          #expect(BinaryPropertyList.write(Self.document(read)) == changed, "byte \(offset)")
        }
      }
    }
    for length in 0..<bytes.count {
      #expect(Array(bytes.prefix(length)).withUnsafeBytes { template.values(in: $0) } == nil)
    }
    #expect((bytes + [0]).withUnsafeBytes { template.values(in: $0) } == nil)
    // A slot's value of another kind, or in a longer form than the writer's, is refused.
    let otherKind = BinaryPropertyList.write(
      Self.document([.real(0.5), .real(0.3), .data(Data()), .integer(7), .bool(false)]))
    #expect(otherKind.withUnsafeBytes { template.values(in: $0) } == nil)
  }

  @Test func refusesSlotsThatAreNotScalars() {
    #expect(BinaryPropertyListTemplate(Self.document, slots: [Self.root]) == nil)
    #expect(
      BinaryPropertyListTemplate(Self.document, slots: [[.key("$top"), .key("root")]]) == nil)
    #expect(BinaryPropertyListTemplate(Self.document, slots: [Self.root + [.key("absent")]]) == nil)
    #expect(
      BinaryPropertyListTemplate(Self.document, slots: [Self.slots[0], Self.slots[0]]) == nil)
    #expect(BinaryPropertyListTemplate(Self.document, slots: []) != nil)
  }
}
