import BowTieModel

/// What `seed --dry-run --json` prints.
public struct SeedPlanJSON: Encodable, Sendable {
  public struct PlannedTie: Encodable, Sendable {
    public var searchKey: String
    public var name: String
    public var outcome: SeedOutcome

    public init(searchKey: String, name: String, outcome: SeedOutcome) {
      self.searchKey = searchKey
      self.name = name
      self.outcome = outcome
    }
  }

  public var dryRun = true
  public var summary: SeedSummary
  public var ties: [PlannedTie]

  /// The plan for `entries`, one outcome each, in order.
  public init(entries: [SeedEntry], outcomes: [SeedOutcome]) {
    summary = SeedSummary(outcomes)
    ties = zip(entries, outcomes).map { entry, outcome in
      PlannedTie(searchKey: entry.tie.searchKey, name: entry.tie.name, outcome: outcome)
    }
  }
}
