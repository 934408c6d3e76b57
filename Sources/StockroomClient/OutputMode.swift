/// How replies are written: for people, as the protocol lines, or as JSON for tools.
public enum OutputMode: String, Sendable, Equatable {
  case human
  case raw
  case json
}
