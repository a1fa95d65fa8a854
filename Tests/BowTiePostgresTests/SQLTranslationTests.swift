import BowTieKit
import BowTieModel
import Testing

@testable import BowTiePostgres

/// The store's SQL, written once for both engines, as PostgreSQL takes it: placeholders
/// numbered where the statement says its values go, the text itself never read.
@Suite("SQL on PostgreSQL")
struct SQLTranslationTests {
  @Test("each value's ? becomes $n in order; a ? or :name in the text stays as it is")
  func numbered() {
    let day = "2026-11-21"
    let fragment: SQL = "x::text = \(day)"
    let sql: SQL = "SELECT \(1), ':day ?', \"odd?\", \(fragment), \(day), \(2), 'it''s ?'"
    #expect(
      PostgresSQLConnection.text(sql)
        == "SELECT $1, ':day ?', \"odd?\", x::text = $2, $3, $4, 'it''s ?'")
    #expect(sql.values == [.integer(1), .text(day), .text(day), .integer(2)])
    #expect(PostgresSQLConnection.text("SELECT 1") == "SELECT 1")
  }

  @Test("ten values and more are numbered past 9; multi-byte text keeps its place")
  func manyValues() {
    var sql: SQL = "SELECT 'é🎀'"
    for number in 1...12 { sql += ", \(number)" }
    #expect(
      PostgresSQLConnection.text(sql)
        == "SELECT 'é🎀'" + (1...12).map { ", $\($0)" }.joined())
  }
}
