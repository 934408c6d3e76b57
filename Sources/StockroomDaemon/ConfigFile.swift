import Foundation
import StockroomDomain
import StockroomServer
import StockroomSystem
import StockroomText

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A `stockroomd` config file: `key = value` lines, `#` comments and blank lines; every key is
/// an option of `ServerOptions.all` without its dashes, and a flag takes `yes` or `no`.
///
/// Every problem in the file is reported at once, each with the file's name and line number,
/// since an operator fixing a file wants the whole list. A value an option marks secret (a store
/// URL may hold a password) is never repeated in a message, and a line that is not `key = value`
/// is not repeated either: it might be a password pasted in the wrong place.
package struct ConfigFile {
  /// One `key = value` line.
  package struct Entry {
    package var option: ServerOption
    package var value: String
    package var line: Int
  }

  /// Longer than any config file a person writes; stops `--config /dev/zero` reading forever.
  package static let maxBytes = 1 << 20

  package let path: String
  package let entries: [Entry]

  /// Reads and checks `path`: every key known and given once, every line `key = value`.
  package init(path: String) throws(ServerConfiguration.UsageError) {
    self.path = path
    let data = try Self.read(path)
    guard var text = String(validating: data, as: UTF8.self) else {
      throw ServerConfiguration.UsageError(message: "config file \(path) is not UTF-8 text")
    }
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    var entries: [Entry] = []
    var problems: [String] = []
    var seen: [String: Int] = [:]
    // CRLF is one Character in Swift, so lines end at either; a file from Windows reads the same.
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
    for (index, line) in lines.enumerated() {
      let number = index + 1
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      guard let equals = trimmed.firstIndex(of: "=") else {
        problems.append("\(path):\(number): expected 'key = value'")
        continue
      }
      let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
      var value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
      if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
      guard let option = ServerOptions.key(key) else {
        problems.append("\(path):\(number): \(Self.unknown(key))")
        continue
      }
      if let first = seen[key] {
        problems.append("\(path):\(number): \(key) is already set on line \(first)")
        continue
      }
      seen[key] = number
      guard !value.isEmpty else {
        problems.append("\(path):\(number): \(key) needs a value")
        continue
      }
      entries.append(Entry(option: option, value: value, line: number))
    }
    // Values are checked now too, so one run lists every problem in the file.
    var scratch = OptionSettings()
    for entry in entries {
      do throws(OptionProblem) {
        try Self.apply(entry, to: &scratch)
      } catch {
        problems.append("\(path):\(entry.line): \(entry.option.name) \(error.message)")
      }
    }
    guard problems.isEmpty else {
      throw ServerConfiguration.UsageError(message: problems.joined(separator: "\n"))
    }
    self.entries = entries
  }

  /// Sets what the file says, in its order.
  package func apply(to settings: inout OptionSettings) throws(ServerConfiguration.UsageError) {
    for entry in entries {
      do throws(OptionProblem) {
        try Self.apply(entry, to: &settings)
      } catch {
        throw ServerConfiguration.UsageError(message: "\(path):\(entry.line): \(entry.option.name) \(error.message)")
      }
    }
  }

  private static func apply(_ entry: Entry, to settings: inout OptionSettings) throws(OptionProblem) {
    switch entry.option.action {
    case .value(_, let set): try set(&settings, entry.value)
    case .flag(let set):
      switch entry.value.lowercased() {
      case "yes", "true", "on": set(&settings, true)
      case "no", "false", "off": set(&settings, false)
      default: throw OptionProblem("takes yes or no, not '\(entry.value)'")
      }
    case .command: break
    }
  }

  /// An unknown key. It is named only when it is plainly a key: a near miss of a real one, or a
  /// command-line-only option. Anything else might be a password pasted with an '=' in it, and
  /// the line number is enough to find it.
  private static func unknown(_ key: String) -> String {
    let keys = ServerOptions.all.filter(\.isKey).map(\.name)
    if let option = ServerOptions.all.first(where: { $0.name == key && !$0.isKey }) {
      return "\(option.name) is an option of the command line only, not a key"
    }
    let spelled = key.replacingOccurrences(of: "_", with: "-").lowercased()
    if keys.contains(spelled) { return "unknown key '\(key)'" + NameSuggestion.didYouMean(spelled) }
    if key.count <= 64, let guess = NameSuggestion.closest(to: key, among: keys) {
      return "unknown key '\(key)'" + NameSuggestion.didYouMean(guess)
    }
    return "unknown key; the keys are the long options of stockroomd --help, without the dashes"
  }

  /// At most `maxBytes + 1` bytes of the file, so one too many says it is too long.
  private static func read(_ path: String) throws(ServerConfiguration.UsageError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw ServerConfiguration.UsageError(message: "cannot read config file \(path): \(Errno(errno))")
    }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: maxBytes + 1)
    var count = 0
    while count < bytes.count {
      let got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
      if got < 0 && errno == EINTR { continue }
      guard got >= 0 else {
        throw ServerConfiguration.UsageError(message: "cannot read config file \(path): \(Errno(errno))")
      }
      if got == 0 { break }
      count += got
    }
    return Array(bytes[..<count])
  }
}
