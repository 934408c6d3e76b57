import StockroomServer
import StockroomStorage
import StockroomSystem
import StockroomTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The configuration while options are being applied: `--fsync` and `--fsync-interval` make one
/// policy between them, whichever comes first and from wherever (file or command line), and the
/// `--tls-*` options one TLS port.
public struct OptionSettings: Sendable {
  /// `--fsync`'s word, waiting for `--fsync-interval` to make a policy of it.
  package enum FsyncMode: String, CaseIterable {
    case always, batch, off
  }

  public var configuration = ServerConfiguration()
  package var fsyncMode = FsyncMode.always
  package var fsyncInterval = 1000
  /// `--tls-cert`, `--tls-key`, `--tls-port` and `--tls-ca`, waiting for each other: only a
  /// certificate and its key together make a TLS port.
  package var tlsCertificate: String?
  package var tlsKey: String?
  package var tlsPort: UInt16?
  package var tlsCA: String?

  public init() {}

  /// The configuration the options add up to, once all are read from wherever they came:
  /// where options only make sense together (a policy from two of them, one that needs
  /// another), they are combined and checked here.
  package func finish() throws(ServerConfiguration.UsageError) -> ServerConfiguration {
    var configuration = configuration
    switch fsyncMode {
    case .batch: configuration.fsync = .batch(milliseconds: fsyncInterval)
    case .off: configuration.fsync = .off
    case .always: configuration.fsync = .always
    }
    configuration.tls = try tls()
    if let tls = configuration.tls, tls.port != 0, tls.port == configuration.port {
      throw ServerConfiguration.UsageError(
        message: "--tls-port \(tls.port) is the plaintext --port too; give them different ports")
    }
    return configuration
  }

  /// The TLS port the `--tls-*` options describe, if any. The files must be there to be read
  /// now, so a path mistyped in the config file is found before a start that would fail on
  /// it; whether they hold a usable certificate and key is for the start (and `--check-config`),
  /// which load them.
  private func tls() throws(ServerConfiguration.UsageError) -> TLSSettings? {
    switch (tlsCertificate, tlsKey) {
    case (let certificate?, let key?):
      var files = [("--tls-cert", certificate), ("--tls-key", key)]
      if let tlsCA { files.append(("--tls-ca", tlsCA)) }
      for (option, file) in files { try Self.readable(file, option) }
      var tls = TLSSettings(certificate: certificate, key: key)
      if let tlsPort { tls.port = tlsPort }
      tls.clientCA = tlsCA
      return tls
    case (nil, nil):
      if tlsPort != nil || tlsCA != nil {
        throw ServerConfiguration.UsageError(
          message: "--tls-port and --tls-ca need --tls-cert FILE and --tls-key FILE")
      }
      return nil
    default:
      throw ServerConfiguration.UsageError(message: "TLS needs both --tls-cert FILE and --tls-key FILE")
    }
  }

  /// Only the name and the system's reason: the key file's content is never read into a message.
  private static func readable(_ file: String, _ option: String) throws(ServerConfiguration.UsageError) {
    var info = stat()
    guard stat(file, &info) == 0, access(file, R_OK) == 0 else {
      throw ServerConfiguration.UsageError(message: "\(option) \(file) cannot be read: \(Errno.current)")
    }
    guard info.st_mode & S_IFMT != S_IFDIR else {
      throw ServerConfiguration.UsageError(message: "\(option) \(file) is a directory, not a PEM file")
    }
  }

  package static func integer(_ text: String, _ range: ClosedRange<Int>) throws(OptionProblem) -> Int {
    guard let number = Int(text), range.contains(number) else {
      throw OptionProblem("takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
    }
    return number
  }

  /// The case of `Choice` that `text` names, or a problem listing them all.
  package static func oneOf<Choice: RawRepresentable & CaseIterable>(
    _ text: String, _ type: Choice.Type = Choice.self
  ) throws(OptionProblem) -> Choice where Choice.RawValue == String {
    guard let choice = Choice(rawValue: text) else {
      let names = Choice.allCases.map(\.rawValue)
      let list = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
      throw OptionProblem("takes \(list), not '\(text)'")
    }
    return choice
  }
}
