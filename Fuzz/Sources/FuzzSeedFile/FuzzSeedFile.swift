// Bytes as a seed file, parsed both as a property list (XML through Expat, binary
// through our strict reader, anything else refused) and as JSON (through
// JSONDecoder), all the way to validated entries.
//
// Checks that only seed-file errors come out; that accepted entries are valid, numbered in
// order, with no repeated id or key; that they seed (dry run, into an empty store in
// memory: no disk); and that each export format reads back as the same ties and, exported
// again, gives the same bytes.
import BowTieKit
import BowTieModel
import Foundation
import FuzzSupport

/// Photos for the `imageName`s of SampleData.plist, so its entries parse whole from memory:
/// a 1×1 PNG each, since photos are decoded on their way in. Made for each input, not kept
/// in a global: LeakSanitizer reports a global dictionary of such `Data` values as leaked at
/// exit (their storage is reached only through `Data`'s enum representation, which its scan
/// of globals does not follow), and a leak stops the run.
func samplePhotos() -> [String: Data] {
  let pixel = Data(onePixelPNG)
  return Dictionary(
    uniqueKeysWithValues: ["red", "orange", "yellow", "green", "blue", "indigo", "violet"].map {
      ("\($0).png", pixel)
    })
}

let onePixelPNG: [UInt8] = Array(
  Data(
    base64Encoded:
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGM4IafxHwAEzgIOvZGGtQAAAABJRU5ErkJggg=="
  )!)

/// Every seed here is a dry run, rolled back, so the store stays empty.
let emptyStore: BowTieStore = {
  _ = registeredTransformer
  return must("opening a store in memory") { try BowTieStore.inMemory() }
}()

let exporters = [
  Exporter(format: .plist), Exporter(format: .plist, binaryPlist: true), Exporter(format: .json),
]

func check(_ data: Data, as format: SeedFile.Format) {
  let entries: [SeedEntry]
  do {
    entries = try SeedFile.parse(
      data, source: "fuzz input", images: .embedded(samplePhotos()), format: format)
  } catch {
    switch error {
    case .invalidSeedFile, .invalidSeedEntry, .seedImageUnreadable:
      expect(!error.localizedDescription.isEmpty, "a seed error without a message: \(error)")
      return
    default:
      fatalError("parsing as \(format) failed with an unexpected error: \(error)")
    }
  }
  checkEntries(entries)

  let plan = must("a dry-run seed of \(entries.count) parsed entries") {
    try emptyStore.seedPlan(entries)
  }
  expect(plan == Array(repeating: .add, count: entries.count), "an empty store planned \(plan)")
  expect(
    must("counting the store") { try emptyStore.count() } == 0,
    "a dry-run seed left ties in the store")

  for exporter in exporters {
    checkRoundTrip(entries, through: exporter)
  }
}

func checkEntries(_ entries: [SeedEntry]) {
  expect(entries.map(\.index) == Array(entries.indices), "entries are not numbered 0, 1, 2…")
  var keys: Set<String> = []
  var ids: Set<UUID> = []
  for entry in entries {
    let tie = entry.tie
    expect(tie.validationFailure == nil, "entry \(entry.index) is invalid: \(tie)")
    expect(
      keys.insert(BowTie.canonicalize(tie.searchKey)).inserted,
      "entry \(entry.index) repeats the key \(tie.searchKey)")
    if entry.hasExplicitID {
      expect(ids.insert(tie.id).inserted, "entry \(entry.index) repeats the id \(tie.id)")
    }
  }
}

/// What an export must keep of a tie: everything, but `lastWorn` in whole seconds.
struct Exported: Equatable {
  var id: UUID
  var name, searchKey: String
  var rating: Double
  var timesWorn: Int32
  var lastWorn: Date?
  var isFavorite: Bool
  var url: String?
  var price: Decimal?
  var currency: String?
  var color: String?
  var photo: Data?

  init(_ tie: BowTie) {
    id = tie.id
    name = tie.name
    searchKey = tie.searchKey
    rating = tie.rating
    timesWorn = tie.timesWorn
    lastWorn = tie.lastWorn.map {
      Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down))
    }
    isFavorite = tie.isFavorite
    url = tie.url?.absoluteString
    price = tie.price
    currency = tie.currency
    color = tie.tintColor?.hex
    photo = tie.photoData
  }
}

func checkRoundTrip(_ entries: [SeedEntry], through exporter: Exporter) {
  let kind = exporter.binaryPlist ? "binary plist" : exporter.format.rawValue
  let export = { (entries: [SeedEntry]) in
    must("a \(kind) export of \(entries.count) parsed entries") {
      try exporter.export(
        entries.map { Exporter.Item(tie: $0.tie, photo: $0.tie.photoData) }, toFolder: false
      ).document
    }
  }
  let first = export(entries)
  let reread = must("seeding a \(kind) export") {
    try SeedFile.parse(
      first, source: "export", images: .embedded([:]),
      format: exporter.format == .json ? .json : .plist)
  }
  expect(reread.count == entries.count, "a \(kind) export read back as \(reread.count) ties")
  for (before, after) in zip(entries, reread) {
    expect(
      Exported(after.tie) == Exported(before.tie),
      "a \(kind) export changed entry \(before.index): \(Exported(before.tie)) became "
        + "\(Exported(after.tie))")
  }
  let second = export(reread)
  expect(
    second == first, "a \(kind) export seeded and exported again changed: \(diff(first, second))")
}

/// The first line that differs, for a message: exports are text, but for binary plists.
func diff(_ first: Data, _ second: Data) -> String {
  let lines = [first, second].map { String(decoding: $0, as: UTF8.self).split(separator: "\n") }
  guard let (index, pair) = zip(lines[0], lines[1]).enumerated().first(where: { $1.0 != $1.1 })
  else { return "\(lines[0].count) lines became \(lines[1].count)" }
  return "line \(index + 1): \(pair.0.debugDescription) became \(pair.1.debugDescription)"
}
