// Bytes as a stored `tintColor` archive, decoded by the registered ColorAttributeTransformer.
//
// Checks that nothing traps (the codec promises a typed error for every defect), that the
// typed and the ValueTransformer entry points agree (the typed one reads an archive the
// template could have written from its three component bytes, the other always runs the
// full decoder), and that every color that decodes
// re-archives to bytes that decode to the same color and archive again identically, with
// the fast template writing exactly what the real encoder writes.
import BowTieKit
import Foundation
import FuzzSupport

func check(_ data: Data) {
  let transformer = registeredTransformer
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
  guard let color = decoded else { return }

  let archive = must("re-archiving \(color)") { try transformer.data(from: color) }
  let encoded = must("encoding \(color)") { try transformer.archivedData(from: color) }
  expect(archive == encoded, "the template's archive of \(color) differs from the encoder's")
  expect(
    transformer.reverseTransformedValue(color) as? Data == archive,
    "reverseTransformedValue disagrees with data(from:) for \(color)")
  let again = must("decoding the re-archived \(color)") { try transformer.color(from: archive) }
  expect(again == color, "\(color) re-archived decodes as \(again)")
  let archivedAgain = must("archiving \(again)") { try transformer.data(from: again) }
  expect(archivedAgain == archive, "archiving \(color) twice gave different bytes")
}
