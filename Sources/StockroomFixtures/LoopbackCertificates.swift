import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Certificates made with the `openssl` command, once per process, in a private temporary
/// directory, for the tests (as `TestCertificates`) and for the bench's TLS rows: a CA, a server certificate for 127.0.0.1 and localhost that it
/// signed, one it signed for another host, a self-signed one nobody trusts, and a client
/// certificate it signed.
public struct LoopbackCertificates: Sendable {
  public let directory: String

  /// The CA every certificate but `selfSigned` chains to.
  public var ca: String { directory + "/ca.pem" }
  public var serverCertificate: String { directory + "/server.pem" }
  public var serverKey: String { directory + "/server.key" }
  /// Signed by the CA, but for `wrong.example` only.
  public var wrongHostCertificate: String { directory + "/wrong-host.pem" }
  public var wrongHostKey: String { directory + "/wrong-host.key" }
  /// For 127.0.0.1 and localhost, signed by itself.
  public var selfSignedCertificate: String { directory + "/self-signed.pem" }
  public var selfSignedKey: String { directory + "/self-signed.key" }
  /// `CN=alice-laptop`, for client authentication, signed by the CA.
  public var clientCertificate: String { directory + "/client.pem" }
  public var clientKey: String { directory + "/client.key" }

  /// The set for this process, made on first use.
  public static func shared() throws -> LoopbackCertificates {
    try made.get()
  }

  private static let made = Result { try LoopbackCertificates() }

  private init() throws {
    let temporary = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(temporary)/stockroom-certs-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw Subprocess.Failure(description: "mkdtemp failed") }
    directory = String(cString: made)
    // Keys too: nothing of them outlives the process.
    atexit {
      if case .success(let certificates) = LoopbackCertificates.made {
        _ = try? Subprocess.run("/bin/rm", ["-rf", certificates.directory], environment: [:])
      }
    }
    try openssl([
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
      "\(directory)/ca.key",
      "-out", ca, "-days", "3", "-subj", "/CN=Stockroom Test CA",
      "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
    ])
    try signed("server", subject: "/CN=localhost", names: "IP:127.0.0.1,DNS:localhost", usage: "serverAuth")
    try signed("wrong-host", subject: "/CN=wrong.example", names: "DNS:wrong.example", usage: "serverAuth")
    try signed("client", subject: "/CN=alice-laptop", names: "DNS:alice-laptop", usage: "clientAuth")
    try openssl([
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
      selfSignedKey, "-out", selfSignedCertificate, "-days", "3", "-subj", "/CN=localhost",
      "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
    ])
  }

  private func signed(_ name: String, subject: String, names: String, usage: String) throws {
    let base = "\(directory)/\(name)"
    try TextFile.write(
      "subjectAltName=\(names)\nextendedKeyUsage=\(usage)\nbasicConstraints=CA:FALSE\n", to: "\(base).ext")
    try openssl([
      "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "\(base).key",
      "-out", "\(base).csr", "-subj", subject,
    ])
    try openssl([
      "x509", "-req", "-in", "\(base).csr", "-CA", ca, "-CAkey", "\(directory)/ca.key", "-CAcreateserial",
      "-out", "\(base).pem", "-days", "3", "-extfile", "\(base).ext",
    ])
  }

  private func openssl(_ arguments: [String]) throws {
    let log = directory + "/openssl.log"
    let status = try Subprocess.run(
      "/usr/bin/openssl", arguments, environment: ["PATH": "/usr/bin:/bin", "RANDFILE": directory + "/.rnd"],
      stderr: log)
    guard status == 0 else {
      throw Subprocess.Failure(
        description: "openssl \(arguments.first ?? "") failed (\(status)): \(TextFile.read(log))")
    }
  }
}
