extension StringProtocol {
  /// The word without the quotes around it, so `"LOGIN"` and `"password=x"` are seen for
  /// what the server reads them as.
  func trimmingQuote() -> String {
    var copy = Substring(self)
    while copy.first == "\"" { copy.removeFirst() }
    while copy.last == "\"" { copy.removeLast() }
    return String(copy)
  }
}
