import Foundation
import Testing

/// The module graph in docs/architecture.md ("Modules") is what the sources import: each
/// module's `import` lines name only modules its row allows. The build checks the same
/// imports against `Package.swift`'s target dependencies; this keeps the document, which
/// is where a reader learns what may use what, from drifting from both.
@Suite("The module graph")
struct ModuleGraphTests {
  static let repository = EngineBoundaryTests.repository

  /// What any module may import: the system's.
  static let system: Set<String> = ["Foundation", "Glibc", "Darwin", "Synchronization", "Dispatch"]

  /// The table under "## Modules": each module's name and the modules it may import.
  static func documentedGraph() throws -> [String: Set<String>] {
    let text = try String(
      contentsOf: repository.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    guard let start = text.range(of: "\n## Modules\n") else { return [:] }
    let section = text[start.upperBound...]
    let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
    var graph: [String: Set<String>] = [:]
    for line in section[..<end].split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 4, let module = Self.names(in: cells[1]).first else { continue }
      // A remark in brackets names no module ("in `Store/SQLite/` only, `…Tests`").
      graph[module] = Set(Self.names(in: cells[3].replacing(/\([^)]*\)/, with: "")))
    }
    return graph
  }

  /// The names in backquotes in `cell`.
  static func names(in cell: String) -> [String] {
    cell.matches(of: /`([A-Za-z_][A-Za-z0-9_-]*)`/).map { String($0.output.1) }
  }

  /// Each module under Sources/ and the modules its Swift files import.
  static func imports() throws -> [String: Set<String>] {
    var found: [String: Set<String>] = [:]
    let lines = try EngineBoundaryTests.lines(stringsToo: false) { path, code in
      path.hasPrefix("Sources/") && code.contains("import ")
    }
    for line in lines {
      let path = line.split(separator: ":")[0]
      let module = String(path.split(separator: "/")[1])
      let code = line.split(separator: ":", maxSplits: 2)[2]
      var words = code.split(whereSeparator: \.isWhitespace).map(String.init)
      words.removeAll { $0.hasPrefix("@") || ["public", "package", "internal"].contains($0) }
      guard words.first == "import", words.count >= 2 else { continue }
      let kinds: Set = ["struct", "enum", "class", "protocol", "func", "typealias", "var", "let"]
      let name = kinds.contains(words[1]) && words.count > 2 ? words[2] : words[1]
      found[module, default: []].insert(String(name.split(separator: ".")[0]))
    }
    return found
  }

  @Test("every module's imports are in its row of the documented graph")
  func importsFollowTheGraph() throws {
    let graph = try Self.documentedGraph()
    #expect(graph["BowTieKit"] != nil, "docs/architecture.md has no module table")
    var wrong: [String] = []
    for (module, imported) in try Self.imports().sorted(by: { $0.key < $1.key }) {
      guard let allowed = graph[module] else {
        if !imported.subtracting(Self.system).isEmpty {
          wrong.append("\(module): not in the table, imports \(imported.sorted())")
        }
        continue
      }
      let extra = imported.subtracting(Self.system).subtracting(allowed)
      if !extra.isEmpty { wrong.append("\(module) imports \(extra.sorted())") }
    }
    #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
  }

  /// The modules a package product brings, where they are more than the product's name.
  static let productModules: [String: Set<String>] = ["GRDB": ["GRDB", "GRDBSQLite"]]

  /// Each target of `Package.swift` that is no test, and the modules its dependencies
  /// bring: a target's name, or a product's modules.
  static func declaredGraph() throws -> [String: Set<String>] {
    let manifest = try String(
      contentsOf: repository.appendingPathComponent("Package.swift"), encoding: .utf8)
    var graph: [String: Set<String>] = [:]
    let target =
      /\.(?:target|executableTarget)\(\s*name: "([^"]+)"(?:,\s*dependencies: \[([^\]]*)\])?/
    for match in manifest.matches(of: target) {
      var modules: Set<String> = []
      let dependency = /\.product\(name: "([^"]+)"[^)]*\)|"([^"]+)"/
      for found in (match.output.2 ?? "").matches(of: dependency) {
        if let product = found.output.1 {
          modules.formUnion(Self.productModules[String(product)] ?? [String(product)])
        } else if let target = found.output.2 {
          modules.insert(String(target))
        }
      }
      graph[String(match.output.1)] = modules
    }
    return graph
  }

  @Test("the documented graph is Package.swift's: each row lists its target's dependencies")
  func graphIsThePackages() throws {
    let documented = try Self.documentedGraph()
    let declared = try Self.declaredGraph()
    #expect(declared["BowtiesCLI"]?.contains("ArgumentParser") == true, "Package.swift not read")
    for (module, allowed) in documented.sorted(by: { $0.key < $1.key }) {
      #expect(
        declared[module] == allowed,
        "\(module): the table says \(allowed.sorted()), Package.swift \(declared[module]?.sorted() ?? [])"
      )
    }
  }

  @Test("no cycle; the model knows nothing of the store, the store nothing of reports or the CLI")
  func layering() throws {
    let graph = try Self.documentedGraph()
    func reaches(_ from: String, _ to: String, _ seen: inout Set<String>) -> Bool {
      for next in graph[from] ?? [] where seen.insert(next).inserted {
        if next == to || reaches(next, to, &seen) { return true }
      }
      return false
    }
    for module in graph.keys.sorted() {
      var seen: Set<String> = []
      #expect(!reaches(module, module, &seen), "\(module) imports itself through others")
    }
    var seen: Set<String> = []
    #expect(!reaches("BowTieModel", "BowTieKit", &seen), "the model reaches the store")
    for lower in ["BowTieModel", "BowTieKit", "PropertyLists", "TextOutput", "ImageCodecs"] {
      for upper in ["BowTieReports", "BowtiesCLI", "BowTiePostgres"] {
        var seen: Set<String> = []
        #expect(!reaches(lower, upper, &seen), "\(lower) reaches \(upper)")
      }
    }
  }
}
