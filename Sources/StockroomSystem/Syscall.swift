#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The one place that turns C's "-1 and errno" into Swift errors, retrying EINTR.
public enum Syscall {
  @discardableResult
  public static func retrying<T: FixedWidthInteger>(_ body: () -> T) throws(Errno) -> T {
    while true {
      let result = body()
      if result != -1 { return result }
      let error = Errno.current
      if error != .interrupted { throw error }
    }
  }

  public static func setNonBlocking(_ fd: Int32) throws(Errno) {
    let flags = try retrying { fcntl(fd, F_GETFL) }
    try retrying { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
  }

  public static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) throws(Errno) {
    var value = value
    try retrying { setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) }
  }

  /// Reads what is available; 0 means the peer closed. Throws an error whose `isWouldBlock` is true when nothing is.
  public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    try retrying { Glibc.read(fd, buffer.baseAddress, buffer.count) }
  }

  public static func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
    try retrying { Glibc.write(fd, buffer.baseAddress, buffer.count) }
  }

  /// The bytes written to socket `fd` that its peer has not acknowledged yet (`TIOCOUTQ`): what
  /// a close would still have to send, and what a reset would destroy.
  public static func unacknowledgedByteCount(_ fd: Int32) throws(Errno) -> Int {
    var count: Int32 = 0
    try retrying { ioctl(fd, UInt(TIOCOUTQ), &count) }
    return Int(count)
  }

  /// Tells a peer it is turned away and closes at once, never blocking: sends `line`, shuts the
  /// sending side, and reads away what the peer already sent, since closing with unread input
  /// makes the kernel answer with a reset that can destroy the line before the peer reads it.
  public static func turnAway(_ fd: Int32, with line: [UInt8]) {
    _ = line.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
    Glibc.shutdown(fd, Int32(SHUT_WR))
    var scratch = [UInt8](repeating: 0, count: 4096)
    for _ in 0..<16 {
      let count = scratch.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
      if count <= 0 { break }
    }
    Glibc.close(fd)
  }

  /// Ignores SIGPIPE so a write to a closed peer fails with EPIPE instead of killing the server,
  /// and SIGXFSZ so a file-size limit makes SQLite's write fail (and the server refuse writes)
  /// instead of killing it.
  public static func ignoreSIGPIPE() {
    signal(SIGPIPE, SIG_IGN)
    signal(SIGXFSZ, SIG_IGN)
  }

  /// Ignores the signals Dispatch sources will handle and blocks them in the calling thread and
  /// every thread it starts after, so one that comes before its source is set up waits pending
  /// until the source reads it. Both happen once, first: setting SIG_IGN discards a pending
  /// signal, and an ignored one that no thread blocks is discarded on arrival (a SIGTERM sent
  /// just after the start was lost either way, and the server never stopped).
  public static func holdSignals(_ numbers: [Int32]) {
    var held = sigset_t()
    sigemptyset(&held)
    for number in numbers {
      signal(number, SIG_IGN)
      sigaddset(&held, number)
    }
    pthread_sigmask(SIG_BLOCK, &held, nil)
  }
}
