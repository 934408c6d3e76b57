import Foundation
import StockroomServer
import StockroomStorage
import StockroomSystem
import StockroomTLS
import StockroomTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `stockroomd --check-config`: everything a start would trip over, found without serving and
/// without changing anything (no directory made, no schema migrated, no port taken, so it can run
/// beside the server it checks for, as `nginx -t` does).
///
/// The options and the config file were checked by parsing them; this looks at what they name.
package struct ConfigCheck {
  package var configuration: ServerConfiguration
  /// What is wrong, one sentence each; empty when a start would get going.
  package private(set) var problems: [String] = []
  /// What a start would warn about but survive.
  package private(set) var warnings: [String] = []
  /// What was found, for the summary line.
  private var found: [String] = []

  package init(_ configuration: ServerConfiguration) {
    self.configuration = configuration
    found.append("config " + (configuration.configFile ?? "none"))
    checkConfigFile()
    found.append("listen \(ListenAddress(host: configuration.host, port: configuration.port))")
    checkTLS()
    checkCatalog()
    checkStore()
    checkLogFile()
    checkFileLimit()
    if let http = configuration.http {
      found.append("board http://\(http)/ metrics http://\(http)/metrics")
      if let address = http.socketAddress, let warning = HTTPServer.exposureWarning(address) {
        warnings.append(warning)
      }
    }
  }

  /// One line: what the server would run with.
  package var summary: String { "configuration OK: " + found.joined(separator: ", ") }

  /// Whoever may write the file decides where the shop is kept and who may register.
  private mutating func checkConfigFile() {
    var info = stat()
    guard let file = configuration.configFile, stat(file, &info) == 0, info.st_mode & 0o022 != 0 else { return }
    warnings.append(
      "config file \(file) may be changed by other users (mode \(String(info.st_mode & 0o777, radix: 8))); "
        + "chmod go-w \(file)")
  }

  /// Parsing found the files readable; here they are loaded as the start would load them, so a
  /// key that is not the certificate's, or a file that is not PEM, is found before a restart.
  /// `TLSError` names files and OpenSSL's reasons, never what the key holds.
  private mutating func checkTLS() {
    guard let tls = configuration.tls else { return }
    do {
      _ = try TLSContext.server(certificate: tls.certificate, key: tls.key, clientCA: tls.clientCA)
      let clients = tls.clientCA.map { ", client certificates from \($0)" } ?? ""
      found.append(
        "tls \(ListenAddress(host: configuration.host, port: tls.port)) certificate \(tls.certificate)\(clients)")
    } catch {
      problems.append("tls: \(error)")
    }
  }

  private mutating func checkCatalog() {
    do {
      let (catalog, _) = try CatalogSource.loadWithText(
        path: configuration.catalogPath, initialStock: configuration.initialStock)
      found.append("catalogue \(configuration.catalogPath ?? "shipped") (\(catalog.fruits.count) fruits)")
    } catch {
      problems.append(error.description)
    }
  }

  private mutating func checkStore() {
    if let store = configuration.store {
      // The URL was checked by parsing; here, whether the database answers. Its messages never
      // hold the password, and neither does the redacted URL.
      do {
        let url = try PostgresURL(store)
        let connection = try PostgresConnection(url, applicationName: "stockroomd --check-config")
        _ = try connection.query("SELECT 1")
        found.append("store postgresql \(url.redacted), fsync \(configuration.fsync)")
      } catch {
        problems.append("store: \(error)")
      }
      return
    }
    guard let directory = configuration.dataDirectory else {
      found.append("store memory (nothing kept across restarts)")
      return
    }
    var info = stat()
    if stat(directory, &info) != 0 {
      // The server makes a missing directory, so its parent must let it.
      let parent = Self.parent(of: directory)
      if access(parent, W_OK | X_OK) != 0 {
        problems.append("data directory \(directory) does not exist and cannot be made in \(parent): \(Errno.current)")
      } else {
        found.append("store sqlite \(ShopDatabase.path(in: directory)) (to be made), fsync \(configuration.fsync)")
      }
      return
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      problems.append("data directory \(directory) is not a directory")
      return
    }
    if access(directory, R_OK | W_OK | X_OK) != 0 {
      problems.append("data directory \(directory) is not readable and writable by this user: \(Errno.current)")
      return
    }
    let database = ShopDatabase.path(in: directory)
    if FileManager.default.fileExists(atPath: database), access(database, R_OK | W_OK) != 0 {
      problems.append("database \(database) is not readable and writable by this user: \(Errno.current)")
      return
    }
    let exposed = ExposedFiles(directory: directory)
    if !exposed.isEmpty && !configuration.insecurePermissions {
      problems.append(
        "other users of this machine may read or write \(exposed); make them yours alone with: \(exposed.fix)")
      return
    }
    found.append("store sqlite \(database), fsync \(configuration.fsync)")
  }

  private mutating func checkLogFile() {
    guard configuration.logging else {
      found.append("log off")
      return
    }
    guard let file = configuration.logFile else {
      found.append("log \(configuration.logFormat.rawValue) to stderr")
      return
    }
    let exists = FileManager.default.fileExists(atPath: file)
    let target = exists ? file : Self.parent(of: file)
    guard access(target, exists ? W_OK : W_OK | X_OK) == 0 else {
      problems.append("log file \(file) cannot be \(exists ? "written" : "made"): \(Errno.current)")
      return
    }
    found.append("log \(configuration.logFormat.rawValue) to \(file)")
  }

  /// Warns as the start would: the open-file limit must hold --max-clients and the server's own.
  private mutating func checkFileLimit() {
    guard let limits = FileLimit.current() else { return }
    let needed = configuration.maxClients + FileLimit.reserved
    if Int(clamping: limits.rlim_max) < needed {
      warnings.append(
        "the open-file hard limit \(limits.rlim_max) is below --max-clients \(configuration.maxClients) + "
          + "\(FileLimit.reserved); raise it (LimitNOFILE= in a systemd unit) or lower max-clients; the server would serve fewer clients"
      )
    } else {
      found.append("max-clients \(configuration.maxClients)")
    }
  }

  /// The directory a missing `path` would be made in.
  private static func parent(of path: String) -> String {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let parent = (absolute as NSString).deletingLastPathComponent
    return parent.isEmpty ? "/" : parent
  }
}
