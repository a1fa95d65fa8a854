import BowTieModel

/// What `doctor --json` prints.
public struct CheckupJSON: Encodable, Sendable {
  public var store: String
  public var healthy: Bool
  public var tiesChecked: Int
  public var photoFilesChecked: Int
  public var problems: [Checkup.Problem]

  public init(store: String, checkup: Checkup) {
    self.store = store
    healthy = checkup.isHealthy
    tiesChecked = checkup.tiesChecked
    photoFilesChecked = checkup.photoFilesChecked
    problems = checkup.problems
  }
}
