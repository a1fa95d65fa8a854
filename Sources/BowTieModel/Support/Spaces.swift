extension String {
  /// The text without its leading and trailing spaces and tabs: exactly what Foundation's
  /// `trimmingCharacters(in: .whitespaces)` returns (Unicode's space separators, the
  /// character tabulation and the zero-width space), without its trip through `NSString`.
  ///
  /// Every command trims its TIE, and that trip costs each process three
  /// protocol-conformance scans of the whole binary (docs/performance.md, "Start-up").
  package func trimmingSpaces() -> String { self[...].trimmingSpaces() }
}

extension Substring {
  /// The text without its leading and trailing spaces and tabs, as `String.trimmingSpaces()`.
  package func trimmingSpaces() -> String {
    // Foundation's set also holds the zero-width space, a space separator until Unicode 4.0.1.
    func isSpace(_ scalar: Unicode.Scalar) -> Bool {
      scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    }
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !isSpace($0) }),
      let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    // Concrete types throughout: building a String from a generic slice of scalars appends
    // through a generic path whose first use scans every protocol conformance in the binary.
    return String(Substring(scalars[first...last]))
  }
}

extension String {
  /// The text as a message quotes it: whole when short, else its start and an ellipsis, so
  /// that a 5,000-character name or argument does not become a 5,000-character error line.
  package var excerpt: String {
    count <= 60 ? self : String(prefix(57)) + "…"
  }
}
