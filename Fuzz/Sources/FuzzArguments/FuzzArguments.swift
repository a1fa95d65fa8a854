// Bytes as a whole command line (arguments split at NUL bytes, UTF-8, bad bytes replaced),
// through both of bowties' front ends: `FastPath` and ArgumentParser's `parseAsRoot`, then
// the command itself, against a store in memory that starts each run as the sample store.
//
// What must hold: no trap anywhere; whenever the fast path takes a line, ArgumentParser
// gives the very same command (every property, dumped), and whenever the fast path refuses
// one, ArgumentParser refuses it with the same exit code and message. Commands that would
// read or write files (seed, export, photo, backup, restore, doctor, a photo, a report's
// --output) are parsed and validated but not run: the fuzzer may name any path.
import ArgumentParser
import Foundation
import FuzzSupport

@testable import BowTieKit
@testable import BowTieModel
@testable import BowtiesCLI

/// The sample store, seeded once; every run starts from a copy of it. Some of its colors
/// are archives UIKit and AppKit wrote, and some of those refused (the color-archive
/// corpus), so that commands meet every form the transformer reads or refuses.
let sampleStore: BowTieStore = {
  _ = registeredTransformer
  let store = must("opening a store in memory") { try BowTieStore.inMemory() }
  _ = must("seeding the sample ties") { try store.seed(SampleData.entries()) }
  let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Corpus/color-archive")
  let archives = [
    "O": "uicolor-float32-green", "Y": "real-terminal-nscolor-custom-space",
    "G": "uicolor-system-red", "B": "uicolor-dynamic", "I": "nscolor-calibrated-white",
    "V": "real-uikit-system-red-damaged",
  ]
  must("storing UIKit's and AppKit's colors") {
    try store.write { connection, _ in
      for (key, name) in archives {
        // A blob literal, not a bound Data: the connection's cached statement would keep
        // its last arguments for the process's life, where LeakSanitizer cannot see the
        // reference a Data keeps tagged in its enum, and reports it as leaked.
        let archive = try Data(contentsOf: corpus.appendingPathComponent(name))
        let literal = "X'" + archive.map { String(format: "%02X", $0) }.joined() + "'"
        try connection.execute(
          "UPDATE bowTie SET tintColor = \(sql: literal) WHERE searchKey = \(key)")
      }
    }
  }
  // Commands print for people and scripts: into /dev/null here, and read nothing.
  let null = open("/dev/null", O_RDWR)
  dup2(null, STDIN_FILENO)
  dup2(null, STDOUT_FILENO)
  close(null)
  return store
}()

/// The whole command, every property wrapper's state included.
func describe(_ command: any ParsableCommand) -> String {
  var text = ""
  dump(command, to: &text)
  return text
}

/// Whether running `command` could touch a file outside the store in memory.
func touchesFiles(_ command: any ParsableCommand) -> Bool {
  switch command {
  case is Bowties.Seed, is Bowties.Export, is Bowties.Photo, is Bowties.Backup,
    is Bowties.Restore, is Bowties.Doctor:
    return true
  case let report as Bowties.Report:
    return report.output.map { $0 != "-" } ?? false
  case let add as Bowties.Add:
    return add.attributes.photo != nil
  case let edit as Bowties.Edit:
    return edit.attributes.photo != nil
  default:
    return false
  }
}

func check(_ data: Data) {
  _ = sampleStore
  let arguments = data.split(separator: 0, omittingEmptySubsequences: false).prefix(16)
    .map { String(decoding: $0, as: UTF8.self) }

  var command: any ParsableCommand
  do {
    let fast = try FastPath.command(arguments)
    let parsed: any ParsableCommand
    do {
      parsed = try Bowties.parseAsRoot(arguments)
    } catch {
      if fast != nil {
        fatalError("the fast path took \(arguments), ArgumentParser refused it: \(error)")
      }
      return
    }
    if let fast {
      expect(
        type(of: fast) == type(of: parsed),
        "\(arguments): \(type(of: fast)) against \(type(of: parsed))")
      expect(describe(fast) == describe(parsed), "\(arguments): the two parsers' commands differ")
    }
    command = parsed
  } catch {
    // The fast path refused a value, as the command's validate() does: so must ArgumentParser.
    do {
      _ = try Bowties.parseAsRoot(arguments)
      fatalError("the fast path refused \(arguments); ArgumentParser took it")
    } catch let parserError {
      let (fast, parsed) = (ExitStatus.outcome(of: error), ExitStatus.outcome(of: parserError))
      expect(
        fast == parsed,
        "\(arguments): the fast path exits \(fast.code) (\(fast.message ?? "")), ArgumentParser "
          + "\(parsed.code) (\(parsed.message ?? ""))")
    }
    return
  }
  guard !touchesFiles(command), let command = command as? any BowtiesCommand else { return }
  // Every store the command opens is a copy of the sample store, closed when it is done,
  // and released with the context. Errors are the command's answer, as main reports them;
  // only a trap is a finding.
  let context = CommandContext(replacingStoresWith: { try sampleStore.inMemoryCopy() })
  try? context.run(command)
}
