import ArgumentParser
import BowTieKit
import BowTieModel
import Foundation
import Testing

@testable import BowtiesCLI

/// One lifecycle for every command: its stores come from the context it runs in, which
/// closes them when the command ends.
@Suite("Command context")
struct CommandContextTests {
  @Test(
    "a command's store is opened through its context and closed when it ends, succeeded or failed",
    arguments: [(["list", "--limit", "0"], true), (["wear", "no such tie"], false)])
  func closesItsStores(_ arguments: [String], _ succeeds: Bool) throws {
    let bowties = BowtiesSandbox()
    // As main does before any store opens.
    ColorAttributeTransformer.register()
    let command = try #require(
      try Bowties.parseAsRoot(arguments + ["--store", bowties.store]) as? any BowtiesCommand)
    let context = CommandContext()
    let result = Result { try context.run(command) }
    #expect(((try? result.get()) != nil) == succeeds, "\(arguments): \(result)")
    // The store was created, and closed: SQLite's last connection to a store removes its
    // log when it closes, and the context still holds the store.
    #expect(FileManager.default.fileExists(atPath: bowties.store))
    #expect(!FileManager.default.fileExists(atPath: bowties.store + "-wal"))
    withExtendedLifetime(context) {}
  }

  @Test("the store found before parsing is opened as it was found, not looked for again")
  func knownStore() throws {
    let bowties = BowtiesSandbox()
    ColorAttributeTransformer.register()
    // Looked for again, this name would be another file.
    let name = bowties.folder.appendingPathComponent("elsewhere.sqlite").path
    let address = try StoreLocation.address(explicitPath: bowties.store)
    let context = CommandContext(knowing: (name, address))
    let command = try #require(
      try Bowties.parseAsRoot(["list", "--limit", "0", "--store", name]) as? any BowtiesCommand)
    try context.run(command)
    #expect(FileManager.default.fileExists(atPath: bowties.store))
    #expect(!FileManager.default.fileExists(atPath: name))
    // Another store than the one found is looked for as usual.
    let other = try #require(
      try Bowties.parseAsRoot(["list", "--limit", "0", "--store", name + "x"])
        as? any BowtiesCommand)
    try context.run(other)
    #expect(FileManager.default.fileExists(atPath: name + "x"))
    withExtendedLifetime(context) {}
  }

  @Test("a store opened again reads as before; one removed meanwhile is not created again")
  func reopens() throws {
    let bowties = BowtiesSandbox()
    ColorAttributeTransformer.register()
    let options = try StoreOptions.parse(["--store", bowties.store])
    let context = CommandContext()
    let first = try context.open(options)
    let again = try context.reopen(first, options)
    #expect(try again.count() == 7)
    try FileManager.default.removeItem(atPath: bowties.store)
    #expect(throws: BowTieError.self) { try context.reopen(again, options) }
    #expect(!FileManager.default.fileExists(atPath: bowties.store))
    withExtendedLifetime(context) {}
  }

  @Test("every subcommand runs through the context, so that none opens a store of its own")
  func everySubcommand() {
    for command in Bowties.configuration.subcommands {
      #expect(command is any BowtiesCommand.Type, "\(command)")
    }
  }

  @Test("the command line keeps no state between commands: no stored or lock-guarded globals")
  func noStaticState() throws {
    for (file, text) in try commandLineSources() {
      #expect(!text.contains("Mutex"), "\(file)")
      #expect(!text.contains("nonisolated(unsafe)"), "\(file)")
      // A static var is computed, never stored.
      for line in text.split(separator: "\n") where line.contains("static var ") {
        #expect(line.contains("{"), "\(file): \(line)")
      }
      // The store hands out with a tie what showing it needs (BowTie.photoIssue).
      #expect(!text.contains("photoProblem(of:"), "\(file)")
      #expect(!text.contains("import Synchronization"), "\(file)")
    }
  }
}
