import Foundation
import StockroomServer
import StockroomTestSupport
import Testing

/// What a real TLS client negotiates with the server's TLS port: `openssl s_client`, as a scanner
/// or an operator checking a deployment would use it.
@Suite("TLS sessions and suites as openssl s_client sees them", .timeLimit(.minutes(30)))
struct TLSSessionTests {
  /// A server with TLS on a free port, requiring client certificates when `clientCA` is set.
  private func server(clientCA: Bool) throws -> (TestServer, UInt16) {
    var settings = try TestTransport.serverSettings()
    if clientCA { settings.clientCA = try TestCertificates.shared().ca }
    let server = try TestServer { $0.tls = settings }
    return (server, try #require(server.server.tlsPort))
  }

  /// Runs `openssl s_client` against `port`, sending QUIT and reading until the server closes,
  /// so that the session tickets the server sends after the handshake have arrived. Returns its
  /// exit status and what it printed.
  private func sClient(_ port: UInt16, _ arguments: [String], in directory: String) throws -> (Int32, String) {
    let certificates = try TestCertificates.shared()
    let input = directory + "/quit"
    let output = directory + "/s_client.out"
    try "QUIT\n".write(toFile: input, atomically: true, encoding: .utf8)
    let status = try Subprocess.run(
      "/usr/bin/timeout",
      [
        "30", "/usr/bin/openssl", "s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", certificates.ca,
        "-cert", certificates.clientCertificate, "-key", certificates.clientKey, "-ign_eof",
      ] + arguments,
      environment: ["PATH": "/usr/bin:/bin"], stdin: input, stdout: output, stderr: output)
    return (status, (try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
  }

  private func temporaryDirectory() throws -> String {
    var template = Array((NSTemporaryDirectory() + "/stockroom-tls-session.XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw Subprocess.Failure(description: "mkdtemp failed") }
    return String(cString: made)
  }

  @Test(
    "a saved session resumes, TLS 1.2 and 1.3, with and without --tls-ca",
    arguments: [("-tls1_2", false), ("-tls1_3", false), ("-tls1_2", true), ("-tls1_3", true)])
  func resumption(version: String, clientCA: Bool) throws {
    let (server, port) = try server(clientCA: clientCA)
    defer { withExtendedLifetime(server) {} }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let session = directory + "/session.pem"
    let (firstStatus, first) = try sClient(port, [version, "-sess_out", session], in: directory)
    #expect(firstStatus == 0, "\(first)")
    #expect(first.contains("OK bye"), "\(first)")
    #expect(first.contains("New, TLSv1."), "\(first)")
    let (secondStatus, second) = try sClient(port, [version, "-sess_in", session], in: directory)
    #expect(secondStatus == 0, "\(second)")
    #expect(second.contains("Reused, TLSv1."), "the saved session was not resumed:\n\(second)")
    #expect(second.contains("OK bye"), "\(second)")
    #expect(!second.contains("alert"), "\(second)")
  }

  @Test("TLS 1.2 offers only forward-secret AEAD suites: a CBC suite gets no session")
  func tls12Suites() throws {
    let (server, port) = try server(clientCA: false)
    defer { withExtendedLifetime(server) {} }
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for suite in ["ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-ECDSA-CHACHA20-POLY1305"] {
      let (status, output) = try sClient(port, ["-tls1_2", "-cipher", suite], in: directory)
      #expect(status == 0 && output.contains("OK bye"), "\(suite) should be served:\n\(output)")
    }
    for suite in ["ECDHE-ECDSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA384", "ECDHE-ECDSA-AES128-SHA256"] {
      let (status, output) = try sClient(port, ["-tls1_2", "-cipher", suite], in: directory)
      #expect(status != 0 && !output.contains("OK bye"), "\(suite) should be refused:\n\(output)")
    }
  }
}

@Suite("A failed TLS connection is logged in plain words", .timeLimit(.minutes(30)))
struct TLSFailureLogTests {
  @Test("a handshake of nonsense records is logged once as failed, the reason not said twice")
  func failureSaidOnce() throws {
    let log = try LogCapture()
    let settings = try TestTransport.serverSettings()
    let server = try TestServer(logger: log.logger) { $0.tls = settings }
    defer { withExtendedLifetime(server) {} }
    let port = try #require(server.server.tlsPort)
    let client = try LineClient(port: port, receiveTimeout: 10)
    // A handshake record whose body is no ClientHello: a TLS protocol error, not plain text.
    try client.send([0x16, 0x03, 0x01, 0x00, 0x04, 0x01, 0x00, 0x00, 0x00])
    #expect(log.waitFor("disconnect id="), "\(log.text)")
    let lines = log.text.split(separator: "\n").filter {
      $0.contains("TLS failed") || $0.contains("tls handshake failed")
    }
    #expect(!lines.isEmpty, "\(log.text)")
    for line in lines {
      #expect(!line.contains("TLS failed: TLS failed"), "\(line)")
    }
  }
}
