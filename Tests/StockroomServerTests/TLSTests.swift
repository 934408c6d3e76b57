import Foundation
import StockroomLogging
import StockroomProtocol
import StockroomServer
import StockroomStorage
import StockroomTLS
import StockroomTestSupport
import StockroomTransport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The TLS port beside the plaintext one: what a client that gets it wrong, stops half-way or
/// speaks plain text meets, and that nobody else notices.
@Suite("TLS on its own port", .timeLimit(.minutes(30)))
struct TLSTests {
  /// A server with TLS on a free port; `adjust` changes its TLS settings.
  private func server(
    log: LogCapture? = nil, _ adjust: (inout TLSSettings) throws -> Void = { _ in }
  ) throws -> (TestServer, UInt16) {
    var settings = try TestTransport.serverSettings()
    try adjust(&settings)
    let server = try TestServer(logger: log?.logger ?? Logger(isEnabled: false)) { configuration in
      configuration.tls = settings
    }
    return (server, try #require(server.server.tlsPort))
  }

  /// A raw TCP connection, for bytes no TLS client would send.
  private func raw(_ port: UInt16) throws -> LineClient {
    try LineClient(port: port, receiveTimeout: 10)
  }

  /// A TLS client that works, beside whatever another connection is doing wrong.
  private func expectServing(_ port: UInt16) throws {
    let client = try LineClient(port: port, tls: try TestTransport.clientContext())
    #expect(try client.readReply().isOK)
    #expect(try client.request("PING tls").message == "tls")
    #expect(try client.request("STOCK banana").rows.first?["stock"] == "10")
  }

  @Test("both ports serve the same shop at once, and tlsPort reads the kernel's choice back")
  func twoPorts() throws {
    let (server, tlsPort) = try server()
    #expect(tlsPort != 0 && tlsPort != server.port)
    let plain = try server.client()
    let secure = try LineClient(port: tlsPort, tls: try TestTransport.clientContext())
    #expect(try secure.readReply().message.contains("stockroomd"))
    #expect(try plain.request("ORDER banana_juice").isOK)
    #expect(try secure.request("STOCK banana").rows.first?["stock"] == "8")
    #expect(try secure.request("ORDER banana_juice").isOK)
    #expect(try plain.request("STOCK banana").rows.first?["stock"] == "6")
  }

  @Test("a request line of many records and a reply of many records arrive whole")
  func largeLines() throws {
    let (server, tlsPort) = try server()
    let client = try LineClient(port: tlsPort, tls: try TestTransport.clientContext())
    _ = try client.readReply()
    let word = String(repeating: "가", count: 20_000)
    let reply = try client.request("PING \(word)")
    #expect(reply.message == word)
    // Pipelined: forty requests in one write, answered in order.
    try client.send(String(repeating: "LIST dishes\n", count: 40))
    let replies = try (0..<40).map { _ in try client.readReply() }
    #expect(replies.allSatisfy { $0.isOK && $0.rows.count == replies[0].rows.count && $0.rows.count >= 10 })
    _ = server
  }

  @Test("plain text on the TLS port gets one plain ERR PROTOCOL line, runs nothing, and harms nobody")
  func plainTextOnTLSPort() throws {
    let (server, tlsPort) = try server()
    let client = try raw(tlsPort)
    try client.send("ORDER banana_juice\nPING\n")
    let lines = try client.readsToEnd()
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("ERR PROTOCOL this port speaks TLS") == true, "\(lines)")
    // An HTTP request is turned away the same way.
    let browser = try raw(tlsPort)
    try browser.send("GET / HTTP/1.1\r\nHost: shop\r\n\r\n")
    #expect(try browser.readsToEnd().first?.hasPrefix("ERR PROTOCOL") == true)
    try expectServing(tlsPort)
    #expect(try server.client().request("STOCK banana").rows.first?["stock"] == "10", "nothing was ordered")
  }

  @Test("a handshake that fails is closed and logged without secrets; other clients go on")
  func handshakeFailure() throws {
    let log = try LogCapture()
    let (server, tlsPort) = try server(log: log)
    let certificates = try TestCertificates.shared()
    // A client that trusts only another certificate refuses the server's.
    let stranger = try TLSContext.client(caFile: certificates.selfSignedCertificate)
    #expect(throws: TLSError.self) { try LineClient(port: tlsPort, tls: stranger) }
    // Garbage that starts like a handshake record.
    let garbage = try raw(tlsPort)
    try garbage.send([22, 3, 1, 0, 8, 1, 2, 3, 4, 5, 6, 7, 8])
    // Closed, with at most a TLS alert record (type 21) before: never a line of the shop's.
    let answer = try garbage.readsToEnd()
    #expect(answer.allSatisfy { $0.utf8.first == 21 }, "\(answer)")
    try expectServing(tlsPort)
    #expect(log.waitFor("tls handshake failed"), "\(log.text)")
    try log.caughtUp(port: server.port)
    let key = try String(contentsOfFile: certificates.serverKey, encoding: .utf8)
    let secretLines = key.split(separator: "\n").filter { !$0.hasPrefix("-----") }
    #expect(secretLines.allSatisfy { !log.text.contains($0) }, "key material in the log")
    _ = server
  }

  @Test("a client that stops mid-handshake is closed at the deadline while others are served")
  func stalledHandshake() throws {
    let log = try LogCapture()
    let (server, tlsPort) = try server(log: log) { $0.handshakeTimeout = .seconds(1) }
    let stalled = try raw(tlsPort)
    // The first bytes of a ClientHello, and then nothing.
    try stalled.send([22, 3, 1, 0, 200, 1, 0, 0])
    let silent = try raw(tlsPort)
    try expectServing(tlsPort)
    #expect(try server.client().request("PING").isOK)
    #expect(try stalled.readsToEnd().isEmpty)
    #expect(try silent.readsToEnd().isEmpty)
    // Closed by the handshake deadline, each of the two, and not for another reason.
    try waitUntil { log.text.components(separatedBy: "tls handshake not finished within 1 s").count - 1 >= 2 }
    #expect(log.text.components(separatedBy: "tls handshake not finished within 1 s").count - 1 == 2, "\(log.text)")
    try waitUntil { server.server.connectedClients == 0 }
  }

  @Test("the client checks the certificate: untrusted and wrong-host ones are refused, saying which")
  func clientVerification() throws {
    let certificates = try TestCertificates.shared()
    let trusting = try TestTransport.clientContext()
    let (first, selfSigned) = try server {
      $0.certificate = certificates.selfSignedCertificate
      $0.key = certificates.selfSignedKey
    }
    let untrusted = #expect(throws: TLSError.self) { try LineClient(port: selfSigned, tls: trusting) }
    #expect(untrusted?.kind == .untrusted)
    #expect(untrusted?.message.contains("self-signed") == true, "\(untrusted?.message ?? "")")
    let (second, wrongHost) = try server {
      $0.certificate = certificates.wrongHostCertificate
      $0.key = certificates.wrongHostKey
    }
    let mismatch = #expect(throws: TLSError.self) { try LineClient(port: wrongHost, tls: trusting) }
    #expect(mismatch?.kind == .hostMismatch)
    #expect(mismatch?.message.contains("127.0.0.1") == true)
    // A name the certificate lists passes; without verification anything does.
    let (third, good) = try server()
    let byName = try LineClient(port: good, tls: trusting, verifyHost: "localhost")
    #expect(try byName.readReply().isOK)
    let insecure = try TLSContext.client(verify: false)
    let anyway = try LineClient(port: wrongHost, tls: insecure)
    #expect(try anyway.readReply().isOK)
    withExtendedLifetime((first, second, third)) {}
  }

  @Test("with --tls-ca a client must present a certificate the CA signed")
  func clientCertificates() throws {
    let certificates = try TestCertificates.shared()
    let log = try LogCapture()
    let (server, tlsPort) = try server(log: log) { $0.clientCA = certificates.ca }
    defer { withExtendedLifetime(server) {} }
    let withCertificate = try TLSContext.client(
      caFile: certificates.ca, certificate: certificates.clientCertificate, key: certificates.clientKey)
    let alice = try LineClient(port: tlsPort, tls: withCertificate)
    #expect(try alice.readReply().isOK)
    #expect(log.waitFor("client=\"/CN=alice-laptop\""), "\(log.text)")
    // Without one, or with one the CA did not sign, there is no session: the handshake or the
    // first read fails (TLS 1.3 clients learn of the refusal after their side is done).
    let stranger = try TLSContext.client(
      caFile: certificates.ca, certificate: certificates.selfSignedCertificate, key: certificates.selfSignedKey)
    for context in [try TestTransport.clientContext(), stranger] {
      do {
        let client = try LineClient(port: tlsPort, tls: context)
        // The server's alert ends the connection: closed without a greeting, not timed out.
        let closed = #expect(throws: LineClient.Failure.self) { _ = try client.readReply() }
        #expect(closed?.description == "connection closed before the reply ended", "\(String(describing: closed))")
      } catch let error as TLSError {
        #expect(error.kind == .protocolFailure || error.kind == .closedEarly, "\(error)")
      }
    }
    // Both refused by the server, each for its certificate.
    try waitUntil { log.text.components(separatedBy: "tls handshake failed").count - 1 >= 2 }
    #expect(log.text.components(separatedBy: "tls handshake failed").count - 1 == 2, "\(log.text)")
  }

  @Test("the server refuses a certificate without its key, or a key that does not match, saying which file")
  func badServerFiles() throws {
    let certificates = try TestCertificates.shared()
    var configuration = ServerConfiguration()
    configuration.io = requestedIOBackend(as: IOBackend.self)
    configuration.port = 0
    configuration.logging = false
    configuration.passwordCost = .least
    var settings = TLSSettings(certificate: certificates.serverCertificate, key: certificates.clientKey)
    settings.port = 0
    configuration.tls = settings
    let catalog = try CatalogSource.load(path: TestServer.catalogPath, initialStock: nil)
    let mismatched = Server(configuration: configuration, catalog: catalog, logger: Logger(isEnabled: false))
    let error = #expect(throws: TLSError.self) { try mismatched.start() }
    #expect(error?.message.contains("client.key") == true, "\(error?.message ?? "")")
    #expect(error?.message.contains("mismatch") == true, "\(error?.message ?? "")")
    mismatched.stop()
    configuration.tls?.key = certificates.directory + "/missing.key"
    let missing = Server(configuration: configuration, catalog: catalog, logger: Logger(isEnabled: false))
    let absent = #expect(throws: TLSError.self) { try missing.start() }
    #expect(absent?.message.contains("missing.key") == true)
    missing.stop()
  }

  /// A TLS server, a first client (so that what every connection shares is counted before),
  /// the server's RSS then, and `count` more clients that each sent `request`.
  private struct Crowd {
    let daemon: DaemonProcess
    let first: LineClient
    let before: Int
    let clients: [LineClient]

    init(count: Int, request: String) throws {
      let certificates = try TestCertificates.shared()
      daemon = try DaemonProcess([
        "--memory", "--port", "0", "--tls-cert", certificates.serverCertificate, "--tls-key",
        certificates.serverKey, "--tls-port", "0",
      ])
      let port = try daemon.tlsPort()
      let context = try TestTransport.clientContext()
      first = try LineClient(port: port, tls: context)
      #expect(try first.readReply().isOK)
      before = try #require(ProcessMemory.residentKiB(of: daemon.process.processIdentifier))
      clients = try (0..<count).map { _ in
        let client = try LineClient(port: port, tls: context)
        #expect(try client.request(request).isOK)
        return client
      }
    }

    /// The server's RSS now, less `before`, per client.
    func perClient() -> Double {
      let now = ProcessMemory.residentKiB(of: daemon.process.processIdentifier) ?? before
      return Double(now - before) / Double(clients.count)
    }
  }

  @Test("a TLS connection costs the server a bounded amount of memory")
  func memoryPerConnection() throws {
    let crowd = try Crowd(count: 200, request: "PING")
    let perConnection = crowd.perClient()
    print("TLS: \(String(format: "%.1f", perConnection)) KiB of server RSS per connection (200 connections)")
    #expect(perConnection < 96, "\(perConnection) KiB per TLS connection")
    #expect(try crowd.first.request("PING").isOK)
  }

  @Test("TLS connections gone quiet give their record buffers back to the system, and work on after")
  func quietConnectionsReleaseBuffers() throws {
    // A reply as long as a record, so that both of OpenSSL's buffers are in use.
    let crowd = try Crowd(count: 200, request: "HELP")
    let perBusy = crowd.perClient()
    // Within a sweep or two (a second each) of going quiet, the buffers are freed and the
    // allocator's pages given back (bounded, should they never be). Only their touched pages
    // counted in the RSS: about 9 KiB of a connection's ~34 after a short exchange.
    var perQuiet = perBusy
    try waitUntil(timeout: 60) {
      perQuiet = crowd.perClient()
      return perQuiet < perBusy - 5
    }
    print("TLS: \(String(format: "%.1f", perBusy)) KiB per connection busy, \(String(format: "%.1f", perQuiet)) quiet")
    for client in crowd.clients { #expect(try client.request("PING").isOK) }
  }

  @Test("reloading the files serves a renewed certificate to new clients; open ones carry on, bad files change nothing")
  func reload() throws {
    let certificates = try TestCertificates.shared()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-reload-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let certificate = folder.appendingPathComponent("shop.pem").path
    let key = folder.appendingPathComponent("shop.key").path
    func install(_ sourceCertificate: String, _ sourceKey: String) throws {
      for (source, target) in [(sourceCertificate, certificate), (sourceKey, key)] {
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: source, toPath: target)
      }
    }
    try install(certificates.selfSignedCertificate, certificates.selfSignedKey)
    let (server, port) = try server {
      $0.certificate = certificate
      $0.key = key
    }
    let context = try TestTransport.clientContext()
    #expect(throws: TLSError.self) { try LineClient(port: port, tls: context) }
    let insecure = try LineClient(port: port, tls: try TLSContext.client(verify: false))
    #expect(try insecure.readReply().isOK)
    // A half-written renewal (a key that is not the certificate's) is refused and changes nothing.
    try install(certificates.serverCertificate, certificates.selfSignedKey)
    #expect(throws: TLSError.self) { try server.server.reloadTLS() }
    #expect(throws: TLSError.self) { try LineClient(port: port, tls: context) }
    try install(certificates.serverCertificate, certificates.serverKey)
    try server.server.reloadTLS()
    let renewed = try LineClient(port: port, tls: context)
    #expect(try renewed.readReply().isOK)
    #expect(try insecure.request("PING").isOK, "the connection made before the reload carries on")
  }
}
