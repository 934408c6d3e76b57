#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `$VISUAL`, else `$EDITOR`, else `vi`, on a private temporary file: long text is written
/// in an editor, not on one line with `\n` escapes.
struct ExternalEditor {
  var command: String
  /// Where the temporary file goes: `$TMPDIR`, else /tmp.
  var folder: String

  enum Outcome: Equatable {
    case saved(String)
    /// Nothing is to be sent; the reason is for the user.
    case cancelled(String)
  }

  init(environment: [String: String]) {
    let chosen = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first {
      !$0.trimmingSpaces().isEmpty
    }
    command = chosen ?? "vi"
    let temporary = environment["TMPDIR"] ?? ""
    folder = temporary.hasPrefix("/") ? temporary : "/tmp"
  }

  /// Lets the user edit `text`. The file is made by mkstemp (mode 0600, so a diary is not
  /// readable by others while it is open) and removed afterwards, whatever happened.
  func edit(_ text: String) -> Outcome {
    var template = Array((folder + "/stockroom-XXXXXX.txt").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
    guard fd >= 0 else { return .cancelled("cannot make a temporary file in \(folder)") }
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { unlink(path) }
    // Editors end the last line with a newline; the text gets one so an untouched save is
    // recognised, and one is taken off again below.
    let initial = text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
    let written = Self.writeAll(initial, to: fd)
    close(fd)
    guard written else { return .cancelled("cannot write \(path)") }
    let status = ChildProcess.whileForeground { () -> Int32 in
      guard let child = try? ChildProcess.shell(command + " \"$1\"", arguments: [path], pipeInput: false) else {
        return 127
      }
      return child.wait()
    }
    guard status == 0 else {
      return .cancelled("the editor (\(command)) exited with status \(status)")
    }
    guard var saved = Self.read(path) else { return .cancelled("cannot read \(path) back") }
    if saved.hasSuffix("\n") { saved.removeLast() }
    if saved.hasSuffix("\r") { saved.removeLast() }
    guard !saved.allSatisfy(\.isWhitespace) else { return .cancelled("the text was empty") }
    return .saved(saved)
  }

  private static func writeAll(_ text: String, to fd: Int32) -> Bool {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
      if count < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += count
    }
    return true
  }

  private static func read(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if count == 0 { break }
      bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
