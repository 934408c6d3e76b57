import CMicroHTTPD

/// What libmicrohttpd 0.9.75 lets through in a request's header fields and a strict server
/// refuses (RFC 9110 §5, RFC 9112 §3.2 and §6.3): a name that is not a token (`Transfer-Encoding
/// :`, with the space before the colon, which MHD checks only at its most tolerant setting), a
/// control byte in a value (a bare CR, which MHD keeps inside the value), a NUL (where MHD ends
/// the value, silently dropping the rest of the line), a body's length or the Host given twice,
/// and an HTTP/1.1 request without a Host. A message that means different things to two
/// parsers is refused, not guessed at.
///
/// The Host check is here rather than MHD's (`MHD_OPTION_STRICT_FOR_CLIENT`): 0.9.75's own 400
/// for a missing Host writes its head twice.
enum HTTPHeaderCheck {
  private struct Findings {
    var problem: String?
    var lengths = 0
    var hosts = 0
  }

  /// Why the request's header fields are refused; nil when they are not. `version` is the
  /// request line's (`HTTP/1.1`).
  static func problem(in connection: OpaquePointer, version: String) -> String? {
    var findings = Findings()
    withUnsafeMutablePointer(to: &findings) { pointer in
      _ = MHD_get_connection_values_n(connection, .HEADER_KIND, visit, pointer)
    }
    if findings.problem == nil, findings.hosts == 0, version != "HTTP/1.0" {
      return "an HTTP/1.1 request needs a Host header\n"
    }
    return findings.problem
  }

  private static let visit: MHD_KeyValueIteratorN = { context, _, key, keySize, value, valueSize in
    guard let context else { return .NO }
    let findings = context.assumingMemoryBound(to: Findings.self)
    let name = UnsafeRawBufferPointer(start: key, count: key == nil ? 0 : keySize)
    let text = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize)
    let lowercased = String(decoding: name, as: UTF8.self).lowercased()
    if name.isEmpty || !name.allSatisfy(isTokenByte) {
      findings.pointee.problem = "a header field's name is not a token\n"
    } else if !text.allSatisfy(isValueByte) {
      findings.pointee.problem = "a header field's value holds a control character\n"
    } else if let value, value[valueSize + 1] != 0 {
      // MHD writes NUL over the CR and LF that end a line, and the value is a C string: a byte
      // after its end other than that LF's NUL means the value stopped at a NUL of the request's
      // own (or its line ended in a bare LF, which is refused with it). The byte is inside MHD's
      // read buffer: every line is followed by at least its LF, then the empty line's.
      findings.pointee.problem = "a header line holds a NUL or does not end in CRLF\n"
    } else if lowercased == "content-length" {
      findings.pointee.lengths += 1
      if findings.pointee.lengths > 1 { findings.pointee.problem = "Content-Length is given more than once\n" }
    } else if lowercased == "host" {
      findings.pointee.hosts += 1
      if findings.pointee.hosts > 1 { findings.pointee.problem = "Host is given more than once\n" }
    }
    return findings.pointee.problem == nil ? .YES : .NO
  }

  /// RFC 9110's `tchar`.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "A")...UInt8(ascii: "Z"):
      true
    default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }

  /// Visible ASCII, space, tab, and anything past ASCII (`obs-text`).
  private static func isValueByte(_ byte: UInt8) -> Bool {
    byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
  }
}
