import CStockroomSystem
import Foundation
import StockroomServer

#if canImport(Glibc)
  import Glibc
#endif

/// An in-process server's log, read back through a pipe, for tests that check what was logged.
final class LogCapture: @unchecked Sendable {
  private let writeEnd: Int32
  private let collected = LockedText()

  init() throws {
    var ends: [Int32] = [0, 0]
    guard sr_pipe_cloexec(&ends) == 0 else { throw LineClient.Failure(description: "pipe: \(errno)") }
    writeEnd = ends[1]
    let readEnd = ends[0]
    let collected = self.collected
    // Ends when the write end closes, with the capture.
    Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        collected.append(String(decoding: buffer[..<count], as: UTF8.self))
      }
      close(readEnd)
    }.start()
  }

  deinit { close(writeEnd) }

  var logger: Logger { Logger(fd: writeEnd) }

  var text: String { collected.text }

  /// Whether `text` is logged within `seconds`.
  func waitFor(_ text: String, within seconds: TimeInterval = 10) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !collected.text.contains(text) {
      guard Date() < deadline else { return false }
      usleep(10_000)
    }
    return true
  }
}
