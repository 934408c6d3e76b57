import StockroomServer

extension ServerOption {
  /// An option that sets a whole number of the configuration, refused outside `range`.
  static func integer(
    _ name: String, placeholder: String, _ range: ClosedRange<Int>,
    _ field: WritableKeyPath<ServerConfiguration, Int> & Sendable, help: String
  ) -> ServerOption {
    integer(name, placeholder: placeholder, range, field, as: { $0 }, help: help)
  }

  /// The same, for a number whose absence means "decide for me" (`--loops`, `--initial-stock`).
  static func integer(
    _ name: String, placeholder: String, _ range: ClosedRange<Int>,
    _ field: WritableKeyPath<ServerConfiguration, Int?> & Sendable, help: String
  ) -> ServerOption {
    integer(name, placeholder: placeholder, range, field, as: { $0 }, help: help)
  }

  private static func integer<Value>(
    _ name: String, placeholder: String, _ range: ClosedRange<Int>,
    _ field: WritableKeyPath<ServerConfiguration, Value> & Sendable, as value: @escaping @Sendable (Int) -> Value,
    help: String
  ) -> ServerOption {
    ServerOption(
      name,
      .value(placeholder: placeholder) { settings, text throws(OptionProblem) in
        settings.configuration[keyPath: field] = value(try OptionSettings.integer(text, range))
      }, help: help)
  }
}
