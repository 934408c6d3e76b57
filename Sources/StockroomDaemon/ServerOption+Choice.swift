import StockroomServer

extension ServerOption {
  /// An option that sets one of a closed set of words of the configuration (`--io epoll`),
  /// refused, with the whole set listed, when the word is none of them.
  static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
    _ name: String, placeholder: String, _ field: WritableKeyPath<ServerConfiguration, Choice> & Sendable,
    help: String
  ) -> ServerOption where Choice.RawValue == String {
    ServerOption(
      name,
      .value(placeholder: placeholder) { settings, text throws(OptionProblem) in
        settings.configuration[keyPath: field] = try OptionSettings.oneOf(text)
      }, help: help)
  }
}
