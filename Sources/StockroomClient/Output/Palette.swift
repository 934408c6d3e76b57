/// ANSI styles, or none at all when colour is off.
public struct Palette: Sendable, Equatable {
  public var isEnabled: Bool

  public init(isEnabled: Bool) {
    self.isEnabled = isEnabled
  }

  public func ok(_ text: String) -> String { style(text, "32") }
  public func error(_ text: String) -> String { style(text, "31") }
  public func event(_ text: String) -> String { style(text, "1;33") }
  public func header(_ text: String) -> String { style(text, "1") }
  public func dim(_ text: String) -> String { style(text, "2") }
  public func bar(_ text: String, fraction: Double) -> String {
    style(text, fraction < 0.25 ? "31" : fraction < 0.5 ? "33" : "32")
  }

  private func style(_ text: String, _ code: String) -> String {
    guard isEnabled, !text.isEmpty else { return text }
    return "\u{1B}[\(code)m\(text)\u{1B}[0m"
  }

  /// Colour is for terminals, and `NO_COLOR` (any non-empty value) turns it off everywhere.
  public static func wanted(
    environment: [String: String], isTerminal: Bool, noColorFlag: Bool
  ) -> Bool {
    if noColorFlag { return false }
    if let value = environment["NO_COLOR"], !value.isEmpty { return false }
    if environment["TERM"] == "dumb" { return false }
    return isTerminal
  }
}
