import Foundation

/// `~/.config/stockroom/config`: defaults a person sets once, below the environment and the
/// command line. `key = value` lines, `#` comments; a mistake names the file and line, since a
/// setting silently ignored is worse than none.
public struct ClientConfig: Sendable, Equatable {
  public var host: String? = nil
  public var port: UInt16? = nil
  public var user: String? = nil
  /// False for `color = off`; nil leaves colour to the terminal and NO_COLOR.
  public var color: Bool? = nil
  public var pager: PagerSetting? = nil
  /// `tls = on`: connect with TLS, as `--tls` does.
  public var tls: Bool? = nil
  /// `cacert = FILE`: the CAs a TLS connection trusts, as `--cacert` says.
  public var cacert: String? = nil
  /// `timing = on`: the REPL starts with `:timing on`.
  public var timing: Bool? = nil
  /// `json = on`: the REPL starts with `:json on`; one-shot commands and scripts are not
  /// changed, so a script reads what it always read.
  public var json: Bool? = nil
  /// `wide = on`: tables keep every column, as `--wide`.
  public var wide: Bool? = nil
  /// `highlight = off`: the REPL's line is not coloured as it is typed (`LineHighlighter`).
  public var highlight: Bool? = nil
  /// `prompt = FORMAT`: the REPL's prompt (`PromptFormat`); in double quotes to keep spaces at
  /// its ends.
  public var prompt: PromptFormat? = nil
  /// `startup = COMMAND`, one line each and in order: run when the REPL starts, as psql runs
  /// `.psqlrc`; the only key that may be given more than once.
  public var startup: [String] = []

  public init() {}

  public struct Invalid: Error, Equatable, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
  }

  /// The keys, in the order `ClientConfigKey.all` gives them.
  public static let keys = ClientConfigKey.all.map(\.name)

  /// `$XDG_CONFIG_HOME/stockroom/config`, else `$HOME/.config/stockroom/config`. The XDG
  /// specification says a relative `$XDG_CONFIG_HOME` is to be ignored.
  public static func path(environment: [String: String]) -> String? {
    if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
      return base + "/stockroom/config"
    }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return home + "/.config/stockroom/config"
  }

  /// The settings in the user's file; none when there is no file.
  public static func load(environment: [String: String]) throws(Invalid) -> ClientConfig {
    guard let path = path(environment: environment), FileManager.default.fileExists(atPath: path) else {
      return ClientConfig()
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Invalid(message: "\(path): cannot be read")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw Invalid(message: "\(path): not UTF-8 text")
    }
    return try parse(text, path: path)
  }

  public static func parse(_ text: String, path: String) throws(Invalid) -> ClientConfig {
    var config = ClientConfig()
    var seen: Set<String> = []
    for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let place = "\(path):\(offset + 1)"
      var line = Substring(rawLine)
      if line.hasSuffix("\r") { line.removeLast() }
      let content = String(line).trimmingSpaces()
      if content.isEmpty || content.hasPrefix("#") { continue }
      guard let equals = content.firstIndex(of: "=") else {
        throw Invalid(message: "\(place): expected key = value, not '\(content)'")
      }
      let key = String(content[..<equals]).trimmingSpaces().lowercased()
      let value = String(content[content.index(after: equals)...]).trimmingSpaces()
      let canonical = key == "colour" ? "color" : key
      if canonical == "password" || canonical == "pass" {
        throw Invalid(
          message: "\(place): a password does not belong in the config file; use --password-file FILE (mode 600)")
      }
      guard keys.contains(canonical) else {
        throw Invalid(message: "\(place): unknown key '\(key)'; known keys: \(keys.joined(separator: ", "))")
      }
      guard canonical == "startup" || seen.insert(canonical).inserted else {
        throw Invalid(message: "\(place): '\(key)' is set twice")
      }
      guard !value.isEmpty else { throw Invalid(message: "\(place): '\(key)' has no value") }
      try config.set(canonical, to: value, as: key, at: place)
    }
    return config
  }

  /// One checked `key = value` line's setting.
  private mutating func set(_ canonical: String, to value: String, as key: String, at place: String) throws(Invalid) {
    switch canonical {
    case "host": host = value
    case "port":
      guard let number = UInt16(value), number > 0 else {
        throw Invalid(message: "\(place): port takes a number from 1 to 65535, not '\(value)'")
      }
      port = number
    case "user": user = value
    case "cacert": cacert = value
    case "tls": tls = try Self.onOff(value, key: key, at: place)
    case "timing": timing = try Self.onOff(value, key: key, at: place)
    case "json": json = try Self.onOff(value, key: key, at: place)
    case "wide": wide = try Self.onOff(value, key: key, at: place)
    case "highlight": highlight = try Self.onOff(value, key: key, at: place)
    case "prompt":
      // Quotes keep the spaces at its ends, which the line's trimming would take.
      let quoted = value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"")
      prompt = PromptFormat(quoted ? String(value.dropFirst().dropLast()) : value)
    case "startup": startup.append(value)
    case "color":
      switch value.lowercased() {
      case "auto", "on": color = true
      case "off", "never": color = false
      default: throw Invalid(message: "\(place): \(key) takes auto or off, not '\(value)'")
      }
    default:
      switch value.lowercased() {
      case "on", "auto": pager = .automatic
      case "off": pager = .off
      default: pager = .command(value)
      }
    }
  }

  private static func onOff(_ value: String, key: String, at place: String) throws(Invalid) -> Bool {
    switch value.lowercased() {
    case "on": return true
    case "off": return false
    default: throw Invalid(message: "\(place): \(key) takes on or off, not '\(value)'")
    }
  }
}
