import StockroomProtocol

/// What a test's client has read and not yet handed on: bytes short of a line, a reply half
/// read, events met while waiting for a reply, and every line, for checks on where events fall.
package final class ReceivedLines {
  private var buffer: [UInt8] = []
  var reader = ReplyReader()
  /// Every event line seen while reading replies, in arrival order.
  var events: [Row] = []
  /// Every line received, in order.
  private(set) var transcript: [String] = []

  package init() {}

  func append(_ bytes: [UInt8]) { buffer.append(contentsOf: bytes) }

  /// The next whole line without its LF, taken out of the buffer; nil until one has come.
  func nextLine() -> String? {
    guard let lf = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    let line = String(decoding: buffer[..<lf], as: UTF8.self)
    buffer.removeSubrange(...lf)
    transcript.append(line)
    return line
  }
}
