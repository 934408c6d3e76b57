import CStockroomSystem
import Foundation
import StockroomLogging
import StockroomServer

@testable import StockroomEngineHarness

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

  /// Returns once everything the server logged before this call has been read: a connection
  /// made to `port` now and closed is logged as it goes, and the log is one ordered stream, so
  /// its disconnect line comes after every earlier line. A check that a line is absent waits
  /// for this first; otherwise a line still in the pipe would pass it.
  func caughtUp(port: UInt16) throws {
    let marker = try LineClient(port: port)
    _ = try marker.readReply()
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(marker.fd, $0, &length) }
    }
    marker.closeNow()
    let peer = "peer=127.0.0.1:\(UInt16(bigEndian: address.sin_port)) reason="
    guard waitFor(peer, within: 20) else {
      throw LineClient.Failure(description: "no disconnect line for the marker connection (\(peer)):\n\(text)")
    }
  }

  /// Returns once everything logged before this call has been read, for an engine with no
  /// port (`EngineHarness`): a marker line written now through the same pipe comes after every
  /// line written before it, so once it has been read, so have they. A check that a line is
  /// absent waits for this first.
  func caughtUp() throws {
    let marker = "log-marker-\(UUID().uuidString)"
    logger.info(marker)
    guard waitFor(marker, within: 20) else {
      throw LineClient.Failure(description: "the marker line \(marker) never came through the log's pipe:\n\(text)")
    }
  }

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
