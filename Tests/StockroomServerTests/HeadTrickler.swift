import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `hosts` × `perHost` connections from 127.0.0.2 and up, each sending one byte of a head that
/// never ends about once a second; one the server closes is opened again (at most once a
/// second), as an attacker keeps the count up.
final class HeadTrickler: Sendable {
  private struct State {
    var rounds = 0
    var replaced = 0
    var stopping = false
  }

  /// The start of a head that never ends.
  static let headStart = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: "

  let port: UInt16
  let hosts: Int
  let perHost: Int
  private let state = Mutex(State())
  private let done = DispatchSemaphore(value: 0)

  init(port: UInt16, hosts: Int, perHost: Int) {
    self.port = port
    self.hosts = hosts
    self.perHost = perHost
  }

  var rounds: Int { state.withLock { $0.rounds } }
  var replaced: Int { state.withLock { $0.replaced } }

  func stop() {
    state.withLock { $0.stopping = true }
    done.wait()
  }

  private func open(_ index: Int) -> Int32 {
    let fd = socket(
      AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    _ = Loopback.bind(fd, to: "127.0.0.\(2 + index % hosts)")
    _ = Loopback.connect(fd, port: port)
    return fd
  }

  func run() {
    defer { done.signal() }
    var sockets = (0..<(hosts * perHost)).map(open)
    var sent = [Int](repeating: 0, count: sockets.count)
    defer { for fd in sockets { close(fd) } }
    let start = Array(Self.headStart.utf8)
    // Bounded: at most ten minutes, whatever the test does.
    let deadline = Date().addingTimeInterval(600)
    while !state.withLock({ $0.stopping }) && Date() < deadline {
      let roundStart = Date()
      for (index, fd) in sockets.enumerated() {
        // The head's start, then a byte a round.
        let bytes = sent[index] == 0 ? start : [UInt8(ascii: "a")]
        let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if count > 0 { sent[index] += 1 }
      }
      // A second of listening for closes; then the closed are opened again.
      var entries = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      while Date().timeIntervalSince(roundStart) < 1 {
        let left = Int32(max(1, (1 - Date().timeIntervalSince(roundStart)) * 1000))
        guard poll(&entries, nfds_t(entries.count), left) > 0 else { continue }
        for index in entries.indices where entries[index].revents != 0 {
          var chunk = [UInt8](repeating: 0, count: 4096)
          let count = chunk.withUnsafeMutableBytes {
            recv(entries[index].fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
          }
          if count > 0 { continue }
          // Closed (or reset): not polled again this round.
          entries[index].fd = -1
        }
      }
      var replacedNow = 0
      for index in entries.indices where entries[index].fd == -1 {
        close(sockets[index])
        sockets[index] = open(index)
        sent[index] = 0
        replacedNow += 1
      }
      state.withLock {
        $0.rounds += 1
        $0.replaced += replacedNow
      }
    }
  }
}
