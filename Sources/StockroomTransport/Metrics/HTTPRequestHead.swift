import Foundation

/// The head of an HTTP/1.x request, read strictly (RFC 9112) by the metrics responder: a request
/// line, header fields, an empty line, every line ended by CRLF. Anything else is refused with
/// the status that says why, never guessed at.
package struct HTTPRequestHead: Equatable {
  package enum Method: Equatable {
    case get, head
    /// A well-formed method the responder does not serve: 405.
    case other
  }

  package var method: Method
  /// The path, without a query.
  package var path: String

  /// What the bytes so far amount to.
  package enum Parse: Equatable {
    /// Not a whole head yet, and nothing wrong so far.
    case incomplete
    case complete(HTTPRequestHead)
    case refused(HTTPStatus)
  }

  /// Longest head read; past it, 431.
  package static let maxBytes = 8192
  package static let maxFields = 64

  package static func parse(_ bytes: [UInt8]) -> Parse {
    // Every LF must end a CRLF; a bare one is a framing error at once, not a wait for more.
    var end: Int?
    for index in bytes.indices where bytes[index] == 0x0A {
      guard index > 0, bytes[index - 1] == 0x0D else { return .refused(.badRequest) }
      if index >= 3, bytes[index - 2] == 0x0A, bytes[index - 3] == 0x0D {
        end = index - 3
        break
      }
    }
    guard let end else { return bytes.count > maxBytes ? .refused(.headerTooLarge) : .incomplete }
    guard end + 4 <= maxBytes else { return .refused(.headerTooLarge) }
    var lines = split(Array(bytes[..<end]))
    guard !lines.isEmpty, lines.count <= maxFields + 1 else {
      return .refused(lines.isEmpty ? .badRequest : .headerTooLarge)
    }
    let requestLine = lines.removeFirst()
    let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte), !parts[1].isEmpty,
      parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
    else { return .refused(.badRequest) }
    let version = String(decoding: parts[2], as: UTF8.self)
    guard version.wholeMatch(of: /HTTP\/[0-9]\.[0-9]/) != nil else { return .refused(.badRequest) }
    guard version == "HTTP/1.1" || version == "HTTP/1.0" else { return .refused(.versionNotSupported) }
    var hosts = 0
    var lengths: [String] = []
    for line in lines {
      guard let colon = line.firstIndex(of: 0x3A), colon > 0 else { return .refused(.badRequest) }
      let name = line[..<colon]
      let value = line[(colon + 1)...]
      // A space before the colon or a folded line (leading space) are refused: both have
      // been used to smuggle requests past a proxy.
      guard name.allSatisfy(isTokenByte), value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
        return .refused(.badRequest)
      }
      let lowered = String(decoding: name, as: UTF8.self).lowercased()
      let trimmed = String(decoding: value, as: UTF8.self).trimmingCharacters(in: [" ", "\t"])
      switch lowered {
      case "host": hosts += 1
      case "content-length": lengths.append(trimmed)
      // No request this responder serves has a body, and a chunked one cannot be skipped safely.
      case "transfer-encoding": return .refused(.badRequest)
      default: break
      }
    }
    // HTTP/1.1 needs exactly one Host (RFC 9112 3.2); 1.0 may have none, never two.
    guard hosts <= 1, version == "HTTP/1.0" || hosts == 1 else { return .refused(.badRequest) }
    if let length = lengths.first {
      guard lengths.count == 1, !length.isEmpty, length.allSatisfy(\.isASCIIDigitCharacter) else {
        return .refused(.badRequest)
      }
      guard length.allSatisfy({ $0 == "0" }) else { return .refused(.contentTooLarge) }
    }
    let method: Method =
      switch String(decoding: parts[0], as: UTF8.self) {
      case "GET": .get
      case "HEAD": .head
      default: .other
      }
    guard let path = path(of: String(decoding: parts[1], as: UTF8.self)) else { return .refused(.badRequest) }
    return .complete(HTTPRequestHead(method: method, path: path))
  }

  /// The path of an origin-form target (`/metrics?x=1`) or an absolute-form one
  /// (`http://host:9187/metrics`, which servers must accept); nil for any other form.
  private static func path(of target: String) -> String? {
    var rest = Substring(target)
    if rest.lowercased().hasPrefix("http://") {
      rest = rest.dropFirst("http://".count)
      guard let slash = rest.firstIndex(of: "/") else { return "/" }
      rest = rest[slash...]
    }
    guard rest.hasPrefix("/") else { return nil }
    return String(rest.prefix { $0 != "?" && $0 != "#" })
  }

  private static func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    var index = 0
    while index + 1 < bytes.count {
      if bytes[index] == 0x0D && bytes[index + 1] == 0x0A {
        lines.append(bytes[start..<index])
        start = index + 2
        index += 2
      } else {
        index += 1
      }
    }
    lines.append(bytes[start...])
    return lines
  }

  /// RFC 9110's tchar: what a method or a field name is made of.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
      UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      true
    default: false
    }
  }
}

extension Character {
  fileprivate var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
