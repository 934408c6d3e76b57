import Foundation
import StockroomSystem
import StockroomTLS
import StockroomTestSupport
import Testing

@testable import StockroomServer

#if canImport(Glibc)
  import Glibc
#endif

/// TLS as an operator runs it: its options in the config file, `--check-config` loading the
/// certificate and key, and SIGHUP reading renewed files into a running `stockroomd`.
@Suite("TLS in operation: config keys, --check-config, SIGHUP reload", .timeLimit(.minutes(30)))
struct TLSOperationTests {
  /// A folder of its own for certificate files a test replaces, removed afterwards.
  final class CertificateFolder: @unchecked Sendable {
    let path: String
    var certificate: String { path + "/shop.pem" }
    var key: String { path + "/shop.key" }

    init() throws {
      path = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-tls-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Puts copies of `certificate` and `key` in place as a renewal should: each written beside
    /// its target, then renamed over it, so the server never reads half a file.
    func install(_ certificate: String, _ key: String) throws {
      for (source, target) in [(certificate, self.certificate), (key, self.key)] {
        let fresh = target + ".new"
        try? FileManager.default.removeItem(atPath: fresh)
        try FileManager.default.copyItem(atPath: source, toPath: fresh)
        guard rename(fresh, target) == 0 else { throw Errno.current }
      }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  /// The lines of a PEM key file between its armour: what must never reach a log or a message.
  private func keyMaterial(_ file: String) throws -> [String] {
    try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
      .filter { !$0.hasPrefix("-----") && $0.count >= 16 }
  }

  private func parse(_ words: [String]) throws(ServerConfiguration.UsageError) -> ServerConfiguration? {
    guard case .run(let configuration) = try ServerConfiguration.parse(words, defaultConfigFile: nil) else {
      return nil
    }
    return configuration
  }

  private func refusal(_ words: [String]) -> String {
    do {
      _ = try ServerConfiguration.parse(words, defaultConfigFile: nil)
      return ""
    } catch {
      return error.message
    }
  }

  @Test("the TLS options are config-file keys, the command line wins, and --help lists them")
  func configKeys() throws {
    let certificates = try TestCertificates.shared()
    let file = try ConfigFileTests.ConfigText(
      """
      host = 0.0.0.0
      tls-cert = \(certificates.serverCertificate)
      tls-key = \(certificates.serverKey)
      tls-port = 8879
      tls-ca = \(certificates.ca)
      allow-plaintext-auth = yes

      """)
    let configured = try #require(try parse(["--config", file.path]))
    #expect(configured.tls?.certificate == certificates.serverCertificate)
    #expect(configured.tls?.key == certificates.serverKey)
    #expect(configured.tls?.port == 8879)
    #expect(configured.tls?.clientCA == certificates.ca)
    #expect(configured.allowPlaintextAuth)
    let overridden = try #require(try parse(["--config", file.path, "--tls-port", "0"]))
    #expect(overridden.tls?.port == 0)
    #expect(overridden.tls?.certificate == certificates.serverCertificate, "the rest still comes from the file")
    for option in ["--tls-cert FILE", "--tls-key FILE", "--tls-port PORT", "--tls-ca FILE", "--allow-plaintext-auth"] {
      #expect(ServerConfiguration.usage.contains(option), "--help lacks \(option)")
    }
  }

  @Test("a certificate needs its key, wherever each was given, and the files must be readable")
  func togetherAndReadable() throws {
    let certificates = try TestCertificates.shared()
    // Half in the file, half on the command line, is whole.
    let half = try ConfigFileTests.ConfigText("tls-cert = \(certificates.serverCertificate)\n")
    #expect(try parse(["--config", half.path, "--tls-key", certificates.serverKey])?.tls != nil)
    #expect(refusal(["--config", half.path]) == "TLS needs both --tls-cert FILE and --tls-key FILE")
    #expect(refusal(["--tls-ca", certificates.ca]).contains("need --tls-cert FILE and --tls-key FILE"))
    let missing = refusal(["--tls-cert", certificates.serverCertificate, "--tls-key", "/proc/nowhere/shop.key"])
    #expect(missing.hasPrefix("--tls-key /proc/nowhere/shop.key cannot be read: "), "\(missing)")
    let folder = try CertificateFolder()
    let directory = refusal(["--tls-cert", folder.path, "--tls-key", certificates.serverKey])
    #expect(directory.contains("is a directory"), "\(directory)")
    let clash = refusal([
      "--tls-cert", certificates.serverCertificate, "--tls-key", certificates.serverKey, "-p", "9000", "--tls-port",
      "9000",
    ])
    #expect(clash.contains("give them different ports"), "\(clash)")
  }

  @Test("--check-config loads the certificate and key: a pair that matches passes, one that does not is a problem")
  func checkConfig() throws {
    let certificates = try TestCertificates.shared()
    let good = try DaemonProcess([
      "--check-config", "--memory", "--port", "0", "--tls-port", "0", "--tls-cert", certificates.serverCertificate,
      "--tls-key", certificates.serverKey, "--tls-ca", certificates.ca,
    ])
    #expect(try good.waitForExit() == 0, "\(good.log)")
    let summary = good.standardOutput(showing: "\n")
    #expect(
      summary.contains(
        "tls 127.0.0.1:0 certificate \(certificates.serverCertificate), client certificates from \(certificates.ca)"),
      "\(summary)")

    // Both files readable, but the key is another certificate's.
    let mismatched = try DaemonProcess([
      "--check-config", "--memory", "--tls-cert", certificates.serverCertificate, "--tls-key",
      certificates.selfSignedKey,
    ])
    #expect(try mismatched.waitForExit() == 78)
    // The count of problems is the last line it writes: once it is read, so is every line before.
    #expect(mismatched.logShows("configuration has 1 problem(s)"), "\(mismatched.log)")
    // OpenSSL finds the mismatch as it takes the key, or when it checks the pair after.
    let mismatch = mismatched.log.contains("mismatch") || mismatched.log.contains("does not belong")
    #expect(
      mismatched.log.contains("stockroomd: tls: ") && mismatched.log.contains(certificates.selfSignedKey) && mismatch,
      "\(mismatched.log)")
    for line in try keyMaterial(certificates.selfSignedKey) {
      // A Bool first, so that a failure does not print the key and the log.
      let shown = mismatched.log.contains(line)
      #expect(!shown, "key material in the output")
    }

    // A key file that is not PEM at all.
    let notPEM = try ConfigFileTests.ConfigText("not a key\n")
    let garbage = try DaemonProcess([
      "--check-config", "--memory", "--tls-cert", certificates.serverCertificate, "--tls-key", notPEM.path,
    ])
    #expect(try garbage.waitForExit() == 78)
    #expect(garbage.log.contains("tls: cannot use the private key in \(notPEM.path)"), "\(garbage.log)")

    // Unreadable is a mistake in the options, found before anything is checked.
    let absent = try DaemonProcess([
      "--check-config", "--memory", "--tls-cert", certificates.serverCertificate, "--tls-key", "/proc/nowhere/k",
    ])
    #expect(try absent.waitForExit() == 64)
  }

  @Test(
    "SIGHUP after the files are replaced: new TLS connections get the new certificate, an open one carries on, a bad set changes nothing"
  )
  func reloadOnHangUp() throws {
    let certificates = try TestCertificates.shared()
    let folder = try CertificateFolder()
    // Start with a certificate the test CA did not sign.
    try folder.install(certificates.selfSignedCertificate, certificates.selfSignedKey)
    let daemon = try DaemonProcess([
      "--memory", "--port", "0", "--tls-port", "0", "--tls-cert", folder.certificate, "--tls-key", folder.key,
    ])
    let port = try daemon.tlsPort()
    let trusting = try TestTransport.clientContext()
    #expect(throws: TLSError.self) { try LineClient(port: port, tls: trusting) }
    // A connection made before any reload, that does not check the certificate.
    let open = try LineClient(port: port, tls: try TLSContext.client(verify: false))
    #expect(try open.readReply().isOK)
    #expect(try open.request("WATCH banana").isOK)

    // A renewal half done: the new certificate beside the old key. Refused; the old set stays.
    try folder.install(certificates.serverCertificate, certificates.selfSignedKey)
    kill(daemon.process.processIdentifier, SIGHUP)
    #expect(daemon.logShows("reloaded=no"), "\(daemon.log)")
    #expect(daemon.log.contains(" ERROR reload signal=SIGHUP tls_cert=\(folder.certificate)"), "\(daemon.log)")
    #expect(daemon.log.contains("mismatch") || daemon.log.contains("does not belong"), "\(daemon.log)")
    #expect(throws: TLSError.self) { try LineClient(port: port, tls: trusting) }
    #expect(try open.request("PING").message == "PONG")

    // The renewal finished: new connections get the CA-signed certificate.
    try folder.install(certificates.serverCertificate, certificates.serverKey)
    kill(daemon.process.processIdentifier, SIGHUP)
    #expect(daemon.logShows("tls_key=\(folder.key) reloaded=yes"), "\(daemon.log)")
    let renewed = try LineClient(port: port, tls: trusting)
    #expect(try renewed.readReply().isOK)
    #expect(try renewed.request("ORDER banana 1").isOK)
    // The connection from before both signals was not dropped: it still gets events and answers.
    #expect(try open.readEvent()["item"] == "banana")
    #expect(try open.request("PING").message == "PONG")
    #expect(daemon.process.isRunning)
    let log = try daemon.logThroughStop()
    for line in try keyMaterial(certificates.serverKey) + keyMaterial(certificates.selfSignedKey) {
      let logged = log.contains(line)
      #expect(!logged, "key material in the log")
    }
  }
}
