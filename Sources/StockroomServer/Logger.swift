import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One line per event on stderr: timestamp, level, message. Each line is a single write(2),
/// so lines from different connections never interleave.
public struct Logger: Sendable {
  public enum Level: String, Sendable {
    case info = "INFO"
    case warning = "WARN"
    case error = "ERROR"
  }

  public var fd: Int32
  public var isEnabled: Bool

  public init(fd: Int32 = 2, isEnabled: Bool = true) {
    self.fd = fd
    self.isEnabled = isEnabled
  }

  public func log(_ level: Level, _ message: String) {
    guard isEnabled else { return }
    let stamp = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    let line = "\(stamp) \(level.rawValue) \(message)\n"
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

  public func info(_ message: String) { log(.info, message) }
  public func warning(_ message: String) { log(.warning, message) }
  public func error(_ message: String) { log(.error, message) }
}
