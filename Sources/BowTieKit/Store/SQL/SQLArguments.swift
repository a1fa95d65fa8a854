/// The values a statement binds: by position (`?`) or by name (`:name`), never both.
public struct SQLArguments: Sendable, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
  public var positional: [SQLValue] = []
  public var named: [String: SQLValue] = [:]

  public init() {}

  public init(_ values: [any SQLValueConvertible]) {
    positional = values.map(\.sqlValue)
  }

  public init(arrayLiteral values: any SQLValueConvertible...) {
    self.init(values)
  }

  public init(dictionaryLiteral pairs: (String, any SQLValueConvertible)...) {
    for (name, value) in pairs { named[name] = value.sqlValue }
  }

  /// Adds or replaces named values.
  public mutating func merge(_ other: SQLArguments) {
    named.merge(other.named) { $1 }
    positional += other.positional
  }

  public subscript(name: String) -> SQLValue? {
    get { named[name] }
    set { named[name] = newValue }
  }
}
