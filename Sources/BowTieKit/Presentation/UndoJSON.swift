import BowTieModel

/// What `undo --json` prints: `{"undone": null}` when there was nothing to undo.
public struct UndoJSON: Encodable, Sendable {
  public struct Undone: Encodable, Sendable {
    public var command: String
    public var description: String
    /// Null when the undo removed the tie (an undone `add`).
    public var tie: TieJSON?

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(command, forKey: .command)
      try container.encode(description, forKey: .description)
      try container.encode(tie, forKey: .tie)
    }

    private enum CodingKeys: String, CodingKey { case command, description, tie }
  }

  public var undone: Undone?

  /// `describe` words the change as the command line prints it without `--json`.
  public init(_ undone: UndoneChange?, describe: (UndoneChange) -> String) {
    self.undone = undone.map { change in
      Undone(
        command: change.change.command, description: describe(change),
        tie: change.tie.map(TieJSON.init))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(undone, forKey: .undone)
  }

  private enum CodingKeys: String, CodingKey { case undone }
}
