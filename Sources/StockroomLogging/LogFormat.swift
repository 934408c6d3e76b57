/// How log lines are written: for people reading a terminal or a file, or for a log collector.
public enum LogFormat: String, Sendable, Equatable, CaseIterable {
  /// `2026-12-01T08:00:00.000Z INFO connect id=3 peer=127.0.0.1:50114 clients=1`
  case text
  /// `{"time":"2026-12-01T08:00:00.000Z","level":"info","message":"connect","id":"3",...}`
  case json
}
