import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Whole small text files read and written with stdio, for the helpers here that run programs
/// and show their logs (like StockroomSystem, this target does without Foundation).
enum TextFile {
  /// The file's text; empty when it cannot be read.
  static func read(_ path: String) -> String {
    guard let file = fopen(path, "r") else { return "" }
    defer { fclose(file) }
    var text = ""
    var buffer = [CChar](repeating: 0, count: 4096)
    while fgets(&buffer, Int32(buffer.count), file) != nil {
      text += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
    return text
  }

  /// Replaces the file's contents with `text`, readable by its owner only.
  static func write(_ text: String, to path: String) throws(Subprocess.Failure) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0, let file = fdopen(fd, "w") else {
      if fd >= 0 { close(fd) }
      throw Subprocess.Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))")
    }
    let written = fputs(text, file) >= 0
    guard fclose(file) == 0, written else { throw Subprocess.Failure(description: "cannot write \(path)") }
  }
}
