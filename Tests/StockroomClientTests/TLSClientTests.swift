import Foundation
import StockroomClient
import StockroomServer
import StockroomTestSupport
import StockroomTransport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `stockroom --tls` and `stockrooms://` through the real binary against a real TLS port:
/// the certificate is checked, and a refusal says what failed and how to fix it.
@Suite("The client over TLS, through the real binary", .timeLimit(.minutes(30)))
struct TLSClientTests {
  private func server(certificate: String? = nil, key: String? = nil, clientCA: String? = nil) throws -> ShopServer {
    let certificates = try TestCertificates.shared()
    var settings = TLSSettings(
      certificate: certificate ?? certificates.serverCertificate, key: key ?? certificates.serverKey)
    settings.port = 0
    // A plain client waits for a greeting on the TLS port, which waits for a ClientHello.
    settings.handshakeTimeout = .seconds(1)
    settings.clientCA = clientCA
    return try ShopServer(accounts: ["alice": .customer], tls: settings)
  }

  @Test("--tls --cacert connects, checks the name, logs in and runs commands, scripts piped too")
  func verified() throws {
    let certificates = try TestCertificates.shared()
    let server = try server()
    let port = try #require(server.tlsPort)
    let url = try ClientProcess.run(
      ["--cacert", certificates.ca, "stockrooms://alice@127.0.0.1:\(port)", "WHOAMI"],
      environment: ["STOCKROOM_PASSWORD": ShopServer.password])
    #expect(url.status == 0, "\(url.error)")
    #expect(url.output.contains("alice"), "\(url.output)")
    let piped = try ClientProcess.run(
      ["--tls", "--cacert", certificates.ca, "-h", "localhost", "-p", "\(port)", "-e"],
      input: "ORDER banana_juice\nSTOCK banana\nPING\n")
    #expect(piped.status == 0, "\(piped.error)")
    #expect(piped.lines.contains("OK order=1"), "\(piped.output)")
    #expect(piped.lines.contains("* banana kind=fruit stock=8 initial=10"), "\(piped.output)")
    #expect(piped.lines.last == "OK PONG")
  }

  @Test("an untrusted certificate is refused, saying so and pointing at --cacert; --insecure takes it")
  func untrusted() throws {
    let certificates = try TestCertificates.shared()
    let server = try server(certificate: certificates.selfSignedCertificate, key: certificates.selfSignedKey)
    let port = try #require(server.tlsPort)
    let refused = try ClientProcess.run(["--tls", "--cacert", certificates.ca, "-p", "\(port)", "PING"])
    #expect(refused.status == 2)
    #expect(refused.error.contains("certificate is not trusted"), "\(refused.error)")
    #expect(refused.error.contains("--cacert FILE"))
    #expect(refused.output.isEmpty)
    // The system's CAs do not know the test CA either.
    let system = try ClientProcess.run(["stockrooms://127.0.0.1:\(port)", "PING"])
    #expect(system.status == 2)
    #expect(system.error.contains("not trusted"), "\(system.error)")
    let insecure = try ClientProcess.run(["--tls", "--insecure", "-p", "\(port)", "PING"])
    #expect(insecure.status == 0, "\(insecure.error)")
    #expect(insecure.lines == ["OK PONG"])
  }

  @Test("a certificate for another host is refused, naming the host dialled")
  func wrongHost() throws {
    let certificates = try TestCertificates.shared()
    let server = try server(certificate: certificates.wrongHostCertificate, key: certificates.wrongHostKey)
    let port = try #require(server.tlsPort)
    let refused = try ClientProcess.run([
      "--tls", "--cacert", certificates.ca, "-h", "localhost", "-p", "\(port)", "PING",
    ])
    #expect(refused.status == 2)
    #expect(refused.error.contains("not for localhost"), "\(refused.error)")
  }

  @Test("a plain-text port and a TLS client, and the other way round, each say what is wrong")
  func crossedPorts() throws {
    let certificates = try TestCertificates.shared()
    let server = try server()
    let tlsToPlain = try ClientProcess.run(["--tls", "--cacert", certificates.ca, "-p", "\(server.port)", "PING"])
    #expect(tlsToPlain.status == 2)
    #expect(tlsToPlain.error.contains("a TLS port?"), "\(tlsToPlain.error)")
    // A plain client waits for the greeting, the TLS port for a ClientHello: the deadline ends it.
    let plainToTLS = try ClientProcess.run(["-p", "\(try #require(server.tlsPort))", "PING"])
    #expect(plainToTLS.status == 2)
    #expect(plainToTLS.error.contains("if it is a TLS port, connect with --tls"), "\(plainToTLS.error)")
  }

  @Test("--cert and --key answer a server that asks for a client certificate")
  func clientCertificate() throws {
    let certificates = try TestCertificates.shared()
    let server = try server(clientCA: certificates.ca)
    let port = try #require(server.tlsPort)
    let with = try ClientProcess.run([
      "--tls", "--cacert", certificates.ca, "--cert", certificates.clientCertificate, "--key", certificates.clientKey,
      "-p", "\(port)", "PING",
    ])
    #expect(with.status == 0, "\(with.error)")
    let without = try ClientProcess.run(["--tls", "--cacert", certificates.ca, "-p", "\(port)", "PING"])
    #expect(without.status == 2)
    #expect(without.error.contains("certificate"), "\(without.error)")
  }
}

/// A listening socket on a free loopback port that never accepts: the kernel completes the TCP
/// handshake and nothing answers the TLS one.
private func silentPort() throws -> (fd: Int32, port: UInt16) {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(fd, $0, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0
    }
  }
  guard bound else { throw ClientProcess.Missing(description: "cannot listen: \(errno)") }
  return (fd, UInt16(bigEndian: address.sin_port))
}

@Suite("A TLS connection attempt is bounded in time", .timeLimit(.minutes(30)))
struct TLSLimitTests {
  @Test("a port that never answers the handshake is given up at the connect limit")
  func silentHandshake() throws {
    let (fd, port) = try silentPort()
    defer { close(fd) }
    let started = ContinuousClock.now
    let error = #expect(throws: ClientError.self) {
      try ServerLink.open(host: "127.0.0.1", port: port, limitMilliseconds: 300, tls: ClientTLS())
    }
    // Given up for the handshake's limit, not for another reason; and not before the limit,
    // which a busy machine can only make later, never sooner.
    #expect(error?.message.contains("no answer to the TLS handshake in time") == true, "\(String(describing: error))")
    #expect(ContinuousClock.now - started >= .milliseconds(300))
  }
}

/// The REPL and `stockroom top` over TLS, in a real terminal.
@Suite("The REPL and the live board over TLS (tmux)", .timeLimit(.minutes(30)))
struct TLSTerminalTests {
  @Test("the REPL runs commands and shows watched events over TLS, and so does the board")
  func replAndBoard() throws {
    let certificates = try TestCertificates.shared()
    var settings = TLSSettings(certificate: certificates.serverCertificate, key: certificates.serverKey)
    settings.port = 0
    let server = try ShopServer(tls: settings)
    let port = try #require(server.tlsPort)
    let tls = ["--tls", "--cacert", certificates.ca, "-p", "\(port)"]
    let repl = try TerminalSession()
    defer { repl.stop() }
    try repl.start(tls)
    try repl.waitFor(text: "stockroom 127.0.0.1:\(port)>")
    try repl.type("WATCH banana")
    try repl.send("Enter")
    try repl.waitFor(text: "watching")
    let order = try ClientProcess.run(tls + ["ORDER", "banana_juice"])
    #expect(order.status == 0, "\(order.error)")
    try repl.waitFor(text: "banana → 8")
    let board = try TerminalSession()
    defer { board.stop() }
    // The shell stays after, so the exit line survives the alternate screen (see BoardTerminalTests).
    try board.start(tls + ["top"], afterwards: "exec cat")
    try board.waitFor(text: "stockroom top · 127.0.0.1:\(port)")
    let kiwi = try ClientProcess.run(tls + ["ORDER", "kiwi"])
    #expect(kiwi.status == 0, "\(kiwi.error)")
    try board.waitFor(text: "Kiwi -1")
    try board.send("q")
    try board.waitFor(text: "[stockroom exited with status 0]")
  }
}
