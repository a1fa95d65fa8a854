import ArgumentParser
import Foundation
import Testing

@testable import BowtiesCLI

/// `FastPath` against ArgumentParser: every command line the fast path takes must give
/// the command `parseAsRoot` gives, every property included, and every value it refuses
/// must be refused by `parseAsRoot` with the same exit code and message.
@Suite("Fast path for everyday command lines")
struct FastPathTests {
  /// The whole command, as text: every property wrapper's state, so that a property the
  /// fast path left unset (still an ArgumentParser definition) or set differently shows.
  private func describe(_ command: any ParsableCommand) -> String {
    var text = ""
    dump(command, to: &text)
    return text
  }

  /// Whether the fast path took `arguments`, after checking it agrees with ArgumentParser.
  @discardableResult
  private func expectSameCommand(_ arguments: [String]) -> Bool {
    let fast: (any ParsableCommand)?
    do {
      fast = try FastPath.command(arguments)
    } catch {
      do {
        _ = try Bowties.parseAsRoot(arguments)
        Issue.record("the fast path refused \(arguments); ArgumentParser took it")
      } catch let parserError {
        #expect(
          ExitStatus.outcome(of: parserError) == ExitStatus.outcome(of: error), "\(arguments)")
      }
      return true
    }
    guard let fast else { return false }
    let parsed: any ParsableCommand
    do {
      parsed = try Bowties.parseAsRoot(arguments)
    } catch {
      Issue.record("the fast path took \(arguments), ArgumentParser refused it: \(error)")
      return true
    }
    #expect(type(of: fast) == type(of: parsed), "\(arguments)")
    #expect(describe(fast) == describe(parsed), "\(arguments)")
    return true
  }

  @Test("the everyday lines take the fast path, and give ArgumentParser's command")
  func everydayLines() throws {
    let lines: [[String]] = [
      ["show", "R"], ["show", "R", "--json"], ["show", "--json", "cafe", "--store", "/tmp/a b"],
      ["show", "Café Bow Tie", "--store=/tmp/x=y.sqlite"], ["wear", "R"],
      ["wear", "R", "--store", "/tmp/s", "--json"], ["rate", "R", "4"],
      ["rate", "R", "4.5", "--json"], ["rate", "--store", "/tmp/s", "R", "0"], ["favorite", "R"],
      ["favorite", "R", "--json"], ["list"], ["list", "--json"],
      ["list", "--store=/tmp/s"],
    ]
    for line in lines {
      #expect(try FastPath.command(line) != nil, "\(line)")
      expectSameCommand(line)
    }
  }

  @Test("a rating the command refuses exits as ArgumentParser's parse of it does, with its message")
  func refusedValues() {
    for line in [["rate", "R", "9"], ["rate", "R", "4,5"], ["rate", "R", "five", "--json"]] {
      #expect("\(line)") { try FastPath.command(line) } throws: { error in
        ExitStatus.outcome(of: error).code == 65
      }
      expectSameCommand(line)
    }
  }

  @Test("anything else is left to ArgumentParser")
  func otherLines() throws {
    let lines: [[String]] = [
      [], ["show"], ["show", "R", "G"], ["show", "--help"], ["show", "R", "-h"],
      ["show", "R", "--"],
      ["show", "R", "--image", "never"], ["show", "R", "--json", "--json"],
      ["show", "R", "--store", "a", "--store", "b"], ["show", "R", "--store"],
      ["show", "R", "--store", "--json"], ["show", "R", "--store="], ["show", "R", "--json=true"],
      ["wear", "R", "--date", "yesterday"], ["rate", "R"], ["rate", "R", "-1"],
      ["rate", "R", "4", "5"], ["favorite", "R", "--off"], ["favorite", "R", "--toggle"],
      ["list", "R"], ["list", "--favorites"], ["list", "--sort", "name"], ["seed"], ["Show", "R"],
      ["--version"], ["help", "show"],
    ]
    for line in lines {
      #expect(try FastPath.command(line) == nil, "\(line)")
    }
  }

  @Test("on generated lines, whatever the fast path takes, ArgumentParser parses the same")
  func generatedLines() {
    let names = ["show", "wear", "rate", "favorite", "list", "seed", "Show", "--store"]
    let everyday = ["R", "cafe", "Café Bow Tie", "4", "4.5", "0", "--json", "--store", "/tmp/x"]
    let odd = [
      "5", "9", "-1", "", " ", "show", "=", "a=b", "--", "-", "-h", "--help", "--json=1", "--jsonx",
      "--store=", "--store=/tmp/a=b", "--store=-x", "--date", "2026-11-21", "--off", "--toggle",
      "--on", "--image", "never", "--version", "-R", "--favorites", "--limit", "--sort",
    ]
    // A fixed generator, so a failure names a line that fails again.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var taken = 0
    for round in 0..<8_000 {
      // Half the lines from everyday words only, so that many take the fast path.
      let words = round.isMultiple(of: 2) ? everyday : everyday + odd
      var line = [names[next(names.count)]]
      for _ in 0..<next(6) { line.append(words[next(words.count)]) }
      if expectSameCommand(line) { taken += 1 }
    }
    // Enough of the lines must take the fast path for the comparison to mean something.
    #expect(taken > 500, "only \(taken) lines took the fast path")
  }
}
