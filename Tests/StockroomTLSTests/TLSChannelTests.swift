import StockroomTLS
import StockroomTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `TLSChannel` on its own, over a socket pair: what it does to the process it lives in.
@Suite("A TLS channel over a socket pair", .timeLimit(.minutes(30)))
struct TLSChannelTests {
  /// A client and a server channel on the two ends of a non-blocking socket pair, handshaken.
  private func connectedPair() throws -> (client: TLSChannel, clientFD: Int32, server: TLSChannel, serverFD: Int32) {
    var fds: [Int32] = [-1, -1]
    try #require(
      socketpair(
        AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
        == 0)
    let certificates = try TestCertificates.shared()
    let serverContext = try TLSContext.server(certificate: certificates.serverCertificate, key: certificates.serverKey)
    let clientContext = try TLSContext.client(verify: false)
    let server = try TLSChannel(context: serverContext, fd: fds[0])
    let client = try TLSChannel(context: clientContext, fd: fds[1])
    var clientDone = false
    var serverDone = false
    // Each side does what it can and waits for the other; a handful of turns is a whole handshake.
    for _ in 0..<20 where !(clientDone && serverDone) {
      if !clientDone {
        switch client.handshake() {
        case .done: clientDone = true
        case .wants: break
        case .failed(let error): Issue.record("client handshake: \(error)")
        }
      }
      if !serverDone {
        switch server.handshake() {
        case .done: serverDone = true
        case .wants: break
        case .failed(let error): Issue.record("server handshake: \(error)")
        }
      }
    }
    try #require(clientDone && serverDone)
    return (client, fds[1], server, fds[0])
  }

  @Test("writing to a peer that has gone fails with EPIPE and raises no SIGPIPE, which would kill a client's process")
  func noSIGPIPE() throws {
    let pair = try connectedPair()
    defer { close(pair.clientFD) }
    // The peer goes by shutting its socket down, not only by closing this descriptor: a child
    // another test is spawning holds a copy of every descriptor until its exec, close-on-exec
    // or not, and a close alone then leaves the socket open (the write succeeded in CI). The
    // copy made here stands for that child.
    let childCopy = dup(pair.serverFD)
    defer { close(childCopy) }
    shutdown(pair.serverFD, Int32(SHUT_RDWR))
    close(pair.serverFD)
    // SIGPIPE is blocked on this thread only while the write runs, so a raised one stays pending
    // where the test can see and take it, instead of ending the test process.
    var pipe = sigset_t()
    sigemptyset(&pipe)
    sigaddset(&pipe, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipe, &previous)
    let bytes: [UInt8] = Array("PING\r\n".utf8)
    let result = bytes.withUnsafeBytes { pair.client.write($0) }
    var pending = sigset_t()
    sigpending(&pending)
    let raised = sigismember(&pending, SIGPIPE) == 1
    if raised {
      var timeout = timespec(tv_sec: 0, tv_nsec: 0)
      _ = sigtimedwait(&pipe, nil, &timeout)
    }
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    #expect(!raised, "the write raised SIGPIPE")
    guard case .failed(let error) = result else {
      Issue.record("a write to a closed peer gave \(result)")
      return
    }
    #expect("\(error)".contains("Broken pipe"), "\(error)")
  }

  @Test("the channel still reads and writes both ways through its own socket BIO")
  func echoes() throws {
    let pair = try connectedPair()
    defer {
      close(pair.clientFD)
      close(pair.serverFD)
    }
    let request: [UInt8] = Array("STOCK banana\r\n".utf8)
    #expect(request.withUnsafeBytes { pair.client.write($0) } == .bytes(request.count))
    var buffer = [UInt8](repeating: 0, count: 64)
    var received: [UInt8] = []
    for _ in 0..<10 where received.count < request.count {
      if case .bytes(let count) = buffer.withUnsafeMutableBytes({ pair.server.read(into: $0) }) {
        received += buffer.prefix(count)
      }
    }
    #expect(received == request)
  }
}
