import Foundation

/// The TCP ports a process listens on, read from /proc: a server started with `--port 0` and
/// `--quiet` says nothing of the port the kernel gave it, but its descriptors show it.
enum ListeningSockets {
  /// The loopback or wildcard IPv4 ports `pid` listens on, lowest first.
  static func ports(of pid: pid_t) -> [UInt16] {
    let inodes = socketInodes(of: pid)
    guard !inodes.isEmpty, let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else {
      return []
    }
    return listening(table: table).filter { inodes.contains($0.inode) }.map(\.port).sorted()
  }

  /// The `socket:[INODE]` links in /proc/PID/fd.
  static func socketInodes(of pid: pid_t) -> Set<UInt64> {
    let folder = "/proc/\(pid)/fd"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    var inodes = Set<UInt64>()
    for name in names {
      guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)"),
        target.hasPrefix("socket:["), target.hasSuffix("]"),
        let inode = UInt64(target.dropFirst("socket:[".count).dropLast())
      else { continue }
      inodes.insert(inode)
    }
    return inodes
  }

  /// The rows of /proc/net/tcp in state LISTEN (0A): `sl local rem st queues tr retrnsmt uid
  /// timeout inode ...`, the local address as `HEXADDR:HEXPORT`.
  static func listening(table: String) -> [(inode: UInt64, port: UInt16)] {
    var found: [(inode: UInt64, port: UInt16)] = []
    for line in table.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: " ")
      guard fields.count > 9, fields[3] == "0A", let colon = fields[1].lastIndex(of: ":"),
        let port = UInt16(fields[1][fields[1].index(after: colon)...], radix: 16),
        let inode = UInt64(fields[9])
      else { continue }
      found.append((inode, port))
    }
    return found
  }
}
