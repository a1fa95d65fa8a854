import BowTieKit
import Testing

@testable import BowTiePostgres

/// The store's SQL, written for both engines, as postgres-nio's extended protocol takes
/// it: one statement at a time, placeholders numbered.
@Suite("SQL for the extended protocol")
struct SQLTranslationTests {
  @Test("a script splits at each ; outside quotes, quoted identifiers and $$ bodies")
  func statements() {
    let script = """
      CREATE TABLE "a;b" (x TEXT DEFAULT ';', y TEXT DEFAULT 'it''s; fine');
      CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE t SET n = n + 1; RETURN NULL;
      END $$;
      SELECT 1;

      """
    let split = PostgresSQLConnection.statements(in: script)
    #expect(split.count == 3, "\(split)")
    #expect(split.first?.hasSuffix("'it''s; fine');") == true)
    #expect(split.dropFirst().first?.contains("RETURN NULL;\nEND $$;") == true)
    #expect(split.last?.trimmingCharacters(in: .whitespacesAndNewlines) == "SELECT 1;")
  }

  @Test("? and :name become $n; nothing inside quotes, and :: is a cast")
  func numbered() throws {
    var arguments: SQLArguments = [1, 2]
    arguments.merge(["day": "2026-11-21"])
    let (sql, values) = try PostgresSQLConnection.numbered(
      "SELECT ?, ':day ?', \"odd?\", x::text, :day, :day, ?, 'it''s ?'", arguments)
    #expect(sql == "SELECT $1, ':day ?', \"odd?\", x::text, $2, $2, $3, 'it''s ?'")
    #expect(values == [.integer(1), .text("2026-11-21"), .integer(2)])
  }

  @Test("too few values, or a name without one, is refused rather than sent")
  func missingValues() {
    #expect(throws: BowTieError.self) {
      try PostgresSQLConnection.numbered("SELECT ?, ?", [1])
    }
    #expect(throws: BowTieError.self) {
      try PostgresSQLConnection.numbered("SELECT :day", SQLArguments())
    }
  }
}
