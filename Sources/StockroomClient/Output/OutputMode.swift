/// How replies are written: for people, as the protocol lines, or as JSON or CSV for tools.
public enum OutputMode: String, Sendable, Equatable {
  case human
  case raw
  case json
  /// Rows as RFC 4180 CSV for spreadsheets and `csvkit`.
  case csv
}
