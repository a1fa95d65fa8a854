/// A count and its noun, as the notes commands print them: "1 tie", "7 ties", "1 photo file".
func counted(_ number: Int, _ noun: String) -> String {
  "\(number) \(noun)\(number == 1 ? "" : "s")"
}
