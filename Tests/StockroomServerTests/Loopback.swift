import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What the test clients share about their sockets to the server on 127.0.0.1.
enum Loopback {
  /// Binds `fd` to `host` with a port the kernel picks, so that a connection comes from there.
  static func bind(_ fd: Int32, to host: String) -> Int32 {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr(host)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
  }

  /// `connect(2)` to `host`:`port`: 0, or -1 with `errno` set (EINPROGRESS on a non-blocking
  /// socket still connecting).
  static func connect(_ fd: Int32, port: UInt16, address host: String = "127.0.0.1") -> Int32 {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr(host)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
  }

  /// Makes the next close of `fd` send a reset instead of a FIN (SO_LINGER 0), as a crashed or
  /// hostile peer leaves.
  static func resetOnClose(_ fd: Int32) {
    var linger = linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
  }

  /// Whether the server on `port` has shut its output on the connection of client socket `fd`:
  /// its FIN is queued after its last reply, or acknowledged; false once its end is gone.
  static func serverShutOutput(_ fd: Int32, serverPort port: UInt16) -> Bool {
    // FIN_WAIT1, FIN_WAIT2, CLOSING (include/net/tcp_states.h).
    guard let state = serverEnd(of: fd, serverPort: port)?.state else { return false }
    return [0x04, 0x05, 0x0B].contains(state)
  }

  /// The bytes the server on `port` has sent on the connection of client socket `fd` that the
  /// client's kernel has not acknowledged; -1 if the server's end is gone.
  static func serverUnacknowledged(_ fd: Int32, serverPort port: UInt16) -> Int {
    serverEnd(of: fd, serverPort: port)?.unacknowledged ?? -1
  }

  /// The server's end of the connection of client socket `fd`, as /proc/net/tcp shows it: its
  /// TCP state and the bytes it holds unacknowledged; nil if the table has no such socket.
  private static func serverEnd(of fd: Int32, serverPort port: UInt16) -> (state: Int, unacknowledged: Int)? {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    // Read to its end: the kernel makes the table a page at a time, and it reports no size.
    guard named == 0, let file = FileHandle(forReadingAtPath: "/proc/net/tcp") else { return nil }
    defer { try? file.close() }
    let table = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
    func hex(_ port: UInt16) -> String {
      let digits = String(port, radix: 16, uppercase: true)
      return ":" + String(repeating: "0", count: 4 - digits.count) + digits
    }
    let local = hex(port)
    let remote = hex(UInt16(bigEndian: address.sin_port))
    // "sl local_address rem_address st tx_queue:rx_queue ...": the server's end is the one whose
    // local port is the server's and whose remote port is the client's.
    for line in table.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: " ")
      guard fields.count > 4, fields[1].hasSuffix(local), fields[2].hasSuffix(remote) else { continue }
      guard let state = Int(fields[3], radix: 16),
        let unacknowledged = fields[4].split(separator: ":").first.flatMap({ Int($0, radix: 16) })
      else { return nil }
      return (state, unacknowledged)
    }
    return nil
  }
}
