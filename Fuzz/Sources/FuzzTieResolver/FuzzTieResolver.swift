// Bytes as a TIE argument (UTF-8, invalid sequences replaced), resolved by
// `BowTieStore.tie(matching:)` against a store in memory holding the sample ties and
// some whose names and keys exercise case, accent, width and script folding and prefixes.
//
// The answer must be the one docs/usage.md's rules give, worked out here without SQL: a
// search key (case and accents do not matter), else an id, else a name, else a unique
// prefix of a name. No other error may come out, whatever the text.
import BowTieKit
import BowTieModel
import Foundation
import FuzzSupport

/// Ties beyond the samples, chosen for look-ups that can go wrong: shared prefixes, a name
/// that is another's prefix, a key that is another tie's name, non-ASCII keys, text that
/// case, accent and width folding change, and more prefix matches than a message lists.
let extraTies: [(name: String, key: String)] =
  [
    ("Café Bow Tie", "C"), ("Cafe Noir", "CN"), ("Black Bow Tie", "K"), ("Blue", "BL"),
    ("Navy Bow Tie", "Blue"), ("Red  Velvet", "RV"), ("Straße Tie", "ß"),
    ("İstanbul Silk", "İS"), ("ｗｉｄｅ Tie", "Ｗ"), ("Σίσυφος", "Σ"), ("가방 넥타이", "가"),
    ("e\u{301}toile", "É"), ("🎀 Ribbon", "🎀"), ("Ǆemal", "ǅ"),
  ] + (1...12).map { ("Tie \($0)", "T\($0)") }

let store: BowTieStore = {
  _ = registeredTransformer
  let store = must("opening a store in memory") { try BowTieStore.inMemory() }
  must("seeding the ties") {
    let json = try JSONSerialization.data(
      withJSONObject: extraTies.map { ["name": $0.name, "searchKey": $0.key, "rating": 3] })
    try store.seed(SampleData.entries())
    try store.seed(
      SeedFile.parse(json, source: "extra ties", images: .embedded([:]), format: .json))
  }
  return store
}()

/// A stored tie as the rules look at it.
struct Known {
  var id: UUID
  var key: String
  var name: String
  var label: String
}

let known: [Known] = must("listing the ties") {
  try store.allTies().map {
    Known(
      id: $0.id, key: BowTie.canonicalize($0.searchKey), name: $0.canonicalName,
      label: "\($0.name) (\($0.searchKey))")
  }
}

enum Outcome: Equatable, CustomStringConvertible {
  case found(UUID)
  case none
  /// The candidates' labels: those a message lists, or all those the rules say match.
  case ambiguous(Set<String>)

  var description: String {
    switch self {
    case .found(let id): "found \(known.first { $0.id == id }?.label ?? id.uuidString)"
    case .none: "no such tie"
    case .ambiguous(let labels): "ambiguous between \(labels.sorted())"
    }
  }
}

/// docs/usage.md's rules, on the canonical forms, compared as Swift strings.
func expectedOutcome(_ query: String) -> Outcome {
  let trimmed = query.trimmingCharacters(in: .whitespaces)
  guard !trimmed.isEmpty else { return .none }
  let canonical = BowTie.canonicalize(trimmed)
  if let tie = known.first(where: { $0.key == canonical }) { return .found(tie.id) }
  // The whole text must be the id: Foundation's parser stops at a NUL, so it reads
  // "0B0771E5-…-000000000001\0junk" as an id.
  if let id = UUID(uuidString: trimmed), id.uuidString == trimmed.uppercased(),
    known.contains(where: { $0.id == id })
  {
    return .found(id)
  }
  for matches in [
    known.filter { $0.name == canonical }, known.filter { $0.name.hasPrefix(canonical) },
  ] where !matches.isEmpty {
    if matches.count == 1 { return .found(matches[0].id) }
    return .ambiguous(Set(matches.map(\.label)))
  }
  return .none
}

func check(_ query: String) {
  let outcome: Outcome
  do {
    outcome = .found(try store.tie(matching: query).id)
  } catch .noSuchTie(let echoed) {
    expect(echoed == query, "noSuchTie names '\(echoed)', not the query")
    outcome = .none
  } catch .ambiguousTie(let echoed, let candidates) {
    expect(echoed == query, "ambiguousTie names '\(echoed)', not the query")
    expect(Set(candidates).count == candidates.count, "candidates repeat: \(candidates)")
    outcome = .ambiguous(Set(candidates))
  } catch {
    fatalError("looking up \(query.debugDescription) failed: \(error)")
  }
  let expected = expectedOutcome(query)
  // More than ten that match are given as eleven, of which a message lists ten: then any
  // eleven of those that match will do.
  if case .ambiguous(let listed) = outcome, case .ambiguous(let matching) = expected,
    matching.count > 10
  {
    expect(
      listed.count == 11 && listed.isSubset(of: matching),
      "\(query.debugDescription): listed \(listed.sorted()) of \(matching.sorted())")
    return
  }
  expect(
    outcome == expected, "\(query.debugDescription): \(outcome), but the rules say \(expected)")
}
