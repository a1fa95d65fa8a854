import Foundation
import XCTest

@testable import BowTieKit
@testable import BowTieModel

/// XCTest rather than Swift Testing: these tests unregister the process-wide color
/// transformer, and XCTest runs them one at a time, apart from the parallel suites.
final class TransformerRegistrationTests: XCTestCase {
  override func tearDown() {
    ColorAttributeTransformer.register()
  }

  func testOpeningRequiresTheNamedTransformer() throws {
    let folder = TemporaryFolder()
    ValueTransformer.setValueTransformer(nil, forName: ColorAttributeTransformer.name)
    XCTAssertThrowsError(try BowTieStore.open(at: folder.storeURL)) { error in
      XCTAssertEqual(error as? BowTieError, .transformerNotRegistered("ColorAttributeTransformer"))
      XCTAssertTrue(
        error.localizedDescription.contains("'ColorAttributeTransformer' is not registered"))
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: folder.storeURL.path))
    ColorAttributeTransformer.register()
    XCTAssertNoThrow(try BowTieStore.open(at: folder.storeURL))
  }

  func testAnotherTransformerUnderTheNameIsNotAFallback() throws {
    final class Impostor: ValueTransformer, @unchecked Sendable {}
    ValueTransformer.setValueTransformer(Impostor(), forName: ColorAttributeTransformer.name)
    XCTAssertThrowsError(try makeInMemoryStoreWithoutRegistering()) { error in
      XCTAssertEqual(error as? BowTieError, .transformerNotRegistered("ColorAttributeTransformer"))
    }
  }

  private func makeInMemoryStoreWithoutRegistering() throws -> BowTieStore {
    try BowTieStore.inMemory()
  }
}
