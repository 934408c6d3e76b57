#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Plain writes to standard error for messages printed before logging is set up.
package enum FileHandleWriter {
  package static func standardError(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = write(2, raw.baseAddress! + offset, raw.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }
}
