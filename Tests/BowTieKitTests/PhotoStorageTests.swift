import Foundation
import Testing

@testable import BowTieKit
@testable import BowTieModel

/// The one place a photo's name becomes a path: only a SHA-256 in lowercase hex does, so
/// a name read from a store or a backup never reaches outside the photo folder.
@Suite("Photo file names")
struct PhotoStorageTests {
  let folder = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("bowties-photos-\(UUID().uuidString)/_EXTERNAL_DATA")

  static let hostile = [
    "../../victim", "/etc/passwd", "", String(repeating: "a", count: 63),
    String(repeating: "a", count: 65), String(repeating: "A", count: 64),
    String(repeating: "a", count: 62) + "/x", String(repeating: "a", count: 63) + "\0",
    String(repeating: "a", count: 63) + "g", String(repeating: "a", count: 60) + "../x",
    // Fullwidth digits are digits to Character, not to the rule.
    String(repeating: "a", count: 63) + "１",
  ]

  @Test("a photo's content name is a file name, and becomes a path inside the folder")
  func contentNames() throws {
    let storage = PhotoStorage(directory: folder)
    let name = PhotoStorage.contentName(Data("a tie".utf8))
    // The SHA-256 that `sha256sum` prints: names in stores written before stay valid.
    #expect(name == "bf875919ab72f0e34c5d7c8837f1bbe1889bf2d798771aa7c46a1ec68aef8535")
    #expect(
      PhotoStorage.contentName(Data())
        == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(PhotoStorage.isFileName(name))
    let file = try storage.file(named: name)
    #expect(file.path == folder.path + "/" + name)
  }

  @Test("any other name is refused before it becomes a path", arguments: hostile)
  func hostileNames(name: String) throws {
    let storage = PhotoStorage(directory: folder)
    #expect(!PhotoStorage.isFileName(name))
    #expect(throws: BowTieError.self) { try storage.file(named: name) }
    #expect(throws: BowTieError.self) { try storage.read(name, expectedSize: nil, tie: "T") }
    #expect(storage.problem(with: name, expectedSize: nil, tie: "T") != nil)
    #expect(storage.contents(name) == nil)
    let other = PhotoStorage(directory: folder.deletingLastPathComponent())
    #expect(throws: (any Error).self) { try storage.copy(name, from: other) }
  }

  @Test("remove skips a name that is not a photo file's, and deletes nothing outside")
  func removeKeepsOutside() throws {
    let outside = folder.deletingLastPathComponent().appendingPathComponent("victim")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
    try Data("keep me".utf8).write(to: outside)
    PhotoStorage(directory: folder).remove(["../victim", outside.path])
    #expect(FileManager.default.fileExists(atPath: outside.path))
  }
}
