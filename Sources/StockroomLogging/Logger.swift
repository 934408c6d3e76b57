import Foundation
import StockroomText

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One line per event: timestamp, level, message, then `key=value` fields, as text for people
/// or as one JSON object for a log collector (`--log-format json`). Each line is a single
/// write(2), so lines from different connections never interleave.
///
/// Shaped like swift-log's `Logger`: a level, a message and metadata. Most lines still carry
/// their fields inside the message (`connect id=3 peer=...`); the JSON form splits those off, so
/// every line today has its fields as JSON fields without each call site changing.
public struct Logger: Sendable {
  public enum Level: String, Sendable {
    case info = "INFO"
    case warning = "WARN"
    case error = "ERROR"

    /// swift-log's names, which log collectors expect in JSON.
    var jsonName: String {
      switch self {
      case .info: "info"
      case .warning: "warning"
      case .error: "error"
      }
    }
  }

  /// Stays the same number for the server's life: SIGHUP puts a reopened file under it
  /// (`LogFile.reopen`), so every copy of this value writes to the new file.
  public var fd: Int32
  public var isEnabled: Bool
  public var format: LogFormat

  public init(fd: Int32 = 2, isEnabled: Bool = true, format: LogFormat = .text) {
    self.fd = fd
    self.isEnabled = isEnabled
    self.format = format
  }

  public func log(_ level: Level, _ message: String, metadata: KeyValuePairs<String, String> = [:]) {
    guard isEnabled else { return }
    let stamp = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    let line = Self.line(format, time: stamp, level: level, message: message, metadata: Array(metadata))
    var bytes = Array(line.utf8)
    bytes.withUnsafeMutableBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return }
        offset += written
      }
    }
  }

  public func info(_ message: String, metadata: KeyValuePairs<String, String> = [:]) {
    log(.info, message, metadata: metadata)
  }
  public func warning(_ message: String, metadata: KeyValuePairs<String, String> = [:]) {
    log(.warning, message, metadata: metadata)
  }
  public func error(_ message: String, metadata: KeyValuePairs<String, String> = [:]) {
    log(.error, message, metadata: metadata)
  }

  /// One whole line, LF included.
  package static func line(
    _ format: LogFormat, time: String, level: Level, message: String, metadata: [(key: String, value: String)]
  ) -> String {
    switch format {
    case .text:
      var line = "\(time) \(level.rawValue) \(message)"
      for (key, value) in metadata { line += " \(key)=\(textValue(value))" }
      return line + "\n"
    case .json:
      let (text, fields) = LogMessage.split(message)
      var object =
        "{\"time\":\(JSONString.quoted(time)),\"level\":\(JSONString.quoted(level.jsonName)),\"message\":\(JSONString.quoted(text))"
      for (key, value) in fields + metadata {
        // A field cannot replace the three every line has.
        let name = ["time", "level", "message"].contains(key) ? "field_" + key : key
        object += ",\(JSONString.quoted(name)):\(JSONString.quoted(value))"
      }
      return object + "}\n"
    }
  }

  /// A value as the text form writes it: quoted when it has a space, a quote or nothing at all.
  private static func textValue(_ value: String) -> String {
    guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "\\" }) else { return value }
    return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

}
