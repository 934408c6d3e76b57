/// Request lines are split at spaces and tabs only, so only those are trimmed; other
/// whitespace may be part of a word.
extension String {
  func trimmingSpaces() -> String {
    var text = Substring(self)
    while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
    while let last = text.last, last == " " || last == "\t" { text.removeLast() }
    return String(text)
  }
}
