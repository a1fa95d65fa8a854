// Bytes as a stored `tintColor` archive, decoded by the registered ColorAttributeTransformer:
// UIKit's UIColor, AppKit's NSColor (with its NSColorSpace and NSMutableData), bowties'
// TieColor of before, or anything else.
//
// Checks that nothing traps (the codec promises a typed error for every defect), that the
// typed and the ValueTransformer entry points agree (the typed one reads an archive one of
// the layouts could have written from its slots, the other always runs the full decoder),
// that the layouts read only what the full decoder reads the same way (the UIColor ones and
// TieColor's), that a TieColor archive is rewritten for the migration exactly when the full
// decoder reads one, and that every color that decodes re-archives to bytes that decode to
// the same color and archive again identically, with the layouts writing exactly what the
// real encoder writes. The NSRGB shortcuts agree with the C library: a word of the input
// that the text check takes for a number is one, and a decoded component's text is "%.3g".
import Foundation
import FuzzSupport

@testable import BowTieKit
@testable import BowTieModel

func check(_ data: Data) {
  let transformer = registeredTransformer
  // The layouts are tried from the first input on: laid out once, from a color of each
  // kind the corpus holds, before any input is read.
  _ = warmedUp
  let decoded: TieColor?
  do {
    decoded = try transformer.color(from: data)
  } catch {
    expect(!error.description.isEmpty, "an archive error without a description: \(error)")
    decoded = nil
  }
  let untyped = transformer.transformedValue(data)
  expect(
    (untyped as? TieColor) == decoded && (untyped == nil) == (decoded == nil),
    "transformedValue gave \(String(describing: untyped)), color(from:) \(String(describing: decoded))"
  )
  if let fast = ColorArchiveLayouts.shared.color(in: data) {
    expect(
      fast == decoded, "a layout read \(fast), the full decoder \(String(describing: decoded))")
  }
  let object = try? transformer.unarchivedObject(from: data)
  if let legacy = ColorArchiveLayouts.shared.legacyColor(in: data) {
    expect(
      (object as? TieColorArchive)?.color == legacy,
      "the TieColor layout read \(legacy), the full decoder \(String(describing: object))")
  }
  let rewritten = transformer.uiColorArchive(replacingTieColorArchive: data)
  expect(
    (rewritten != nil) == (object is TieColorArchive),
    "rewritten for the migration: \(rewritten != nil), a TieColor archive: \(object is TieColorArchive)"
  )
  checkNumberText(data, decoded)
  guard let color = decoded else { return }

  let archive = must("re-archiving \(color)") { try transformer.data(from: color) }
  if let rewritten {
    expect(rewritten == archive, "the migration's archive of \(color) differs from data(from:)")
  }
  expect(
    transformer.reverseTransformedValue(color) as? Data == archive,
    "the layouts' archive of \(color) differs from the encoder's")
  let again = must("decoding the re-archived \(color)") { try transformer.color(from: archive) }
  expect(again == color, "\(color) re-archived decodes as \(again)")
  let archivedAgain = must("archiving \(again)") { try transformer.data(from: again) }
  expect(archivedAgain == archive, "archiving \(color) twice gave different bytes")
}

/// The shortcuts of `NSRGB`'s text: a word the form check accepts is a number the C
/// library reads, and each component's text, worked out in integers for an 8-bit value, is
/// what "%.3g" prints.
func checkNumberText(_ data: Data, _ decoded: TieColor?) {
  for word in [UInt8](data).split(whereSeparator: { $0 == 0x20 || $0 == 0 }) where word.count < 40 {
    if ColorText.isDecimalNumber(word) {
      let text = String(decoding: word, as: UTF8.self)
      expect(Double(text) != nil, "the form check accepts \(text), which is not a number")
    }
  }
  guard let color = decoded else { return }
  for component in [color.red, color.green, color.blue, color.alpha] {
    expect(
      ColorText.number(component) == ColorText.formatted(component),
      "the NSRGB text of \(component) is not what %.3g prints")
  }
}

/// Colors of every set of -Double keys, decoded twice each, so that their layouts exist.
let warmedUp: Void = {
  let transformer = registeredTransformer
  for keys in 0..<16 {
    let values = (0..<4).map { keys & 1 << $0 != 0 ? 0.1 : 0.5 }
    let color = TieColor(red: values[0], green: values[1], blue: values[2], alpha: values[3])
    let archive = must("archiving \(color)") { try transformer.data(from: color) }
    for _ in 0..<2 { _ = must("decoding \(color)") { try transformer.color(from: archive) } }
  }
}()
