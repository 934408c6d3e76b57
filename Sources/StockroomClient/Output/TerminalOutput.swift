import CStockroomShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Writes straight to the file descriptors, after flushing stdio's buffer that libedit uses,
/// so the two never come out of order.
public enum TerminalOutput {
  public static func write(_ text: String) { write(text, to: 1) }
  public static func writeError(_ text: String) { write(text, to: 2) }

  public static func write(_ text: String, to fd: Int32) {
    guard !text.isEmpty else { return }
    sr_flush_stdout()
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { raw in
        Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
  }
}
