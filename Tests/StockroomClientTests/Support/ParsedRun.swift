import StockroomClient

extension ClientOptions.Parsed {
  /// The options a command line runs with; nil when it asked for help or the version instead,
  /// so that `try #require(parsed.runOptions)` fails the test there rather than skipping its checks.
  var runOptions: ClientOptions? {
    guard case .run(let options) = self else { return nil }
    return options
  }
}
