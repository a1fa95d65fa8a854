import ArgumentParser
import BowTieKit
import BowTieModel

extension Bowties {
  struct Doctor: BowtiesCommand {
    static let configuration = CommandConfiguration(
      commandName: "doctor",
      abstract: "Check the store: integrity, schema, rows, colors and photo files.",
      discussion: """
        Runs SQLite's integrity check, then checks the schema version and its tables, \
        indexes, triggers and views, every tie against the model's rules (rows written by \
        other tools), each stored color, and the external photo files, missing or \
        orphaned. Never creates a store, and upgrades one only with --repair. Exit \
        status: 0 healthy, 65 problems remain, 74 no store there or one it cannot read.
        """)

    @Flag(
      help: """
        Fix what can be fixed without guessing: remove orphaned photo files, recompute \
        search columns, take a wear count another tool wrote as the new total, upgrade an \
        older schema. Reports what it cannot fix.
        """)
    var repair = false

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run(in context: CommandContext) throws {
      // As the store is, never created, and upgraded only when repairing.
      let (name, checkup) = try context.address(storeOptions).checkup(repairing: repair)
      if output.json {
        try TieOutput(json: true).printJSON(CheckupJSON(store: name, checkup: checkup))
      } else {
        try StandardOutput.write { output in
          output.printLine(
            "checked \(name): \(counted(checkup.tiesChecked, "tie")), "
              + "\(counted(checkup.photoFilesChecked, "photo file"))")
          for problem in checkup.problems {
            let status = problem.repaired ? "repaired" : "problem "
            let subject = problem.subject.map { "\($0): " } ?? ""
            output.printLine("\(status)  \(problem.kind.rawValue)  \(subject)\(problem.detail)")
          }
          let remaining = checkup.problems.filter { !$0.repaired }.count
          output.printLine(
            remaining == 0
              ? "healthy"
              : "\(counted(remaining, "problem")) \(remaining == 1 ? "remains" : "remain")")
        }
      }
      // Nothing in bowties mends a damaged file; a backup is the way back.
      if checkup.problems.contains(where: { $0.kind == .integrity }) {
        Terminal.note(
          "the store file is damaged, which --repair cannot mend: "
            + "bowties restore BACKUP puts a backup in its place")
      }
      if !checkup.isHealthy { throw ExitCode(ExitStatus.invalidData) }
    }
  }
}
