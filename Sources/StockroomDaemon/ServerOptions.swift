import StockroomSecurity
import StockroomServer
import StockroomStorage
import StockroomSystem
import StockroomText
import StockroomTransport

/// Every `stockroomd` option, in the order `--help` lists them. A new option is one entry here
/// (and the field it sets in `ServerConfiguration`): the command line, the config file's key,
/// `--help` and `--check-config`'s parsing follow from it; a check that needs other options
/// (a certificate needs its key) goes in `OptionSettings.finish()`, and what `--check-config`
/// should look at beyond the value (whether a certificate loads) goes in `ConfigCheck`.
public enum ServerOptions {
  public static let all: [ServerOption] = [
    ServerOption(
      "host",
      .value(placeholder: "ADDRESS") { settings, text throws(OptionProblem) in
        guard SocketAddress(host: text, port: 0) != nil else {
          throw OptionProblem("takes a numeric IPv4 or IPv6 address or localhost, not '\(text)'")
        }
        settings.configuration.host = text
      }, help: "address to listen on (default 127.0.0.1; loopback unless you say otherwise)"),
    ServerOption(
      "port", short: "p",
      .value(placeholder: "PORT") { settings, text throws(OptionProblem) in
        settings.configuration.port = UInt16(try OptionSettings.integer(text, 0...65535))
      }, help: "TCP port (default 7878; 0 picks a free one and logs it)"),
    .integer(
      "initial-stock", placeholder: "N", 0...1_000_000_000, \.initialStock,
      help: "every fruit starts with N (default: the catalogue's initial_stock, 10)"),
    ServerOption(
      "catalog", .value(placeholder: "FILE") { settings, text in settings.configuration.catalogPath = text },
      help: "load this catalogue JSON instead of the shipped one"),
    .integer(
      "max-line", placeholder: "BYTES", 64...(64 * 1024 * 1024), \.maxLine,
      help: "longest request line accepted (default 65536)"),
    .integer(
      "max-clients", placeholder: "N", 1...1_000_000, \.maxClients,
      help: "connections served at once; more get ERR LIMIT (default 1024)"),
    .integer(
      "max-clients-per-address", placeholder: "N", 0...1_000_000, \.maxClientsPerAddress,
      help: """
        connections one address (an IPv6 /64) may hold at once, watchers included;
        more get ERR LIMIT (default 256; 0 for no limit)
        """),
    ServerOption(
      "data",
      .value(placeholder: "DIR") { settings, text in
        settings.configuration.dataDirectory = text
        settings.configuration.store = nil
      },
      help: """
        keep the shop in DIR/stockroom.sqlite (default ./data, created 0700 if missing;
        a DIR or database that group or others may read or write is refused)
        """),
    ServerOption(
      "insecure-permissions", .flag { settings, on in settings.configuration.insecurePermissions = on },
      help: "start on such a DIR anyway, with a warning in the log"),
    ServerOption(
      "memory",
      .flag { settings, on in
        guard on else { return }
        settings.configuration.dataDirectory = nil
        settings.configuration.store = nil
      }, help: "keep the shop in memory only: a restart starts from the catalogue"),
    ServerOption(
      "store",
      .value(placeholder: "URL") { settings, text throws(OptionProblem) in
        // libpq's own check, so a typo is found before serving; its message never holds the text.
        do {
          _ = try PostgresURL(text)
        } catch {
          throw OptionProblem("takes a PostgreSQL URL (postgresql://user@host:port/db); this one is not")
        }
        settings.configuration.store = text
        settings.configuration.dataDirectory = nil
      }, secret: true,
      help: """
        keep the shop in PostgreSQL (postgresql://user@host:port/db; also
        $STOCKROOM_STORE); any number of nodes may serve one store; see stockroomd migrate --help
        """),
    .choice(
      "registration", placeholder: "MODE", \.registration,
      help: "open (default): anyone may REGISTER a customer account; closed: admins only"),
    .choice(
      "reads", placeholder: "MODE", \.reads,
      help: """
        with --store, what a read sees: linearizable (default) waits one round
        trip so it shows every change acknowledged on any node before it;
        cached answers at once and may miss another node's change for the
        milliseconds its announcement takes (up to 1 s if one is lost)
        """),
    ServerOption(
      "fsync",
      .value(placeholder: "MODE") { settings, text throws(OptionProblem) in
        settings.fsyncMode = try OptionSettings.oneOf(text)
      },
      help: """
        always (default): every acknowledged change is on disk, even after power loss
        batch: forced to disk every --fsync-interval ms; power loss can lose that window
        off: the OS writes when it likes; power loss can lose ~30 s
        (a crash of stockroomd itself loses nothing acknowledged in any mode)
        """),
    ServerOption(
      "fsync-interval",
      .value(placeholder: "MS") { settings, text throws(OptionProblem) in
        settings.fsyncInterval = try OptionSettings.integer(text, 1...60_000)
      }, help: "for --fsync batch (default 1000)"),
    .integer(
      "loops", placeholder: "N", 1...256, \.loops,
      help: """
        event-loop threads serving connections (default: 1 on up to two cores;
        above that one per core, less one for the committer when on disk)
        """),
    .choice(
      "io", placeholder: "BACKEND", \.io,
      help: """
        epoll: each loop a thread waiting in epoll_wait;
        dispatch: each loop a serial Dispatch queue with read and write sources
        (default $STOCKROOM_IO, else epoll)
        """),
    .integer(
      "timeout", placeholder: "SECONDS", 0...31_536_000, \.idleTimeout,
      help: """
        close a connection that sends and reads nothing for this long (default 600;
        0 never); a watching connection is never idle
        """),
    .integer(
      "line-timeout", placeholder: "SECONDS", 0...86_400, \.lineTimeout,
      help: """
        close a connection whose request line takes longer than this to arrive
        whole (default 30; 0 never)
        """),
    .integer(
      "watch-timeout", placeholder: "SECONDS", 0...86_400, \.watchTimeout,
      help: """
        close a watching connection that leaves its events unread for this long
        (default 300; 0 never); a watcher with nothing waiting is never closed
        """),
    .integer(
      "order-rate", placeholder: "LINES", 0...10_000_000, \.orderRate,
      help: """
        order lines one address may place a second, ten seconds' worth at once
        (default 1000; 0 no limit); past it ERR LIMIT says when to try again
        """),
    .integer(
      "password-memory", placeholder: "MIB", PasswordCost.memoryRange, \.passwordCost.memoryMiB,
      help: """
        memory each Argon2id password hash fills (default 64, libsodium's interactive
        limit); less makes a stolen hash cheaper to guess: for small machines and tests
        """),
    .integer(
      "password-passes", placeholder: "N", PasswordCost.passesRange, \.passwordCost.passes,
      help: "passes each password hash makes over that memory (default 2)"),
    ServerOption(
      "tls-cert", .value(placeholder: "FILE") { settings, text in settings.tlsCertificate = text },
      help: """
        serve TLS too, with this certificate (PEM, chain after the leaf); needs
        --tls-key; SIGHUP reads both again for new connections
        """),
    ServerOption(
      "tls-key", .value(placeholder: "FILE") { settings, text in settings.tlsKey = text },
      help: "the certificate's private key (PEM, no passphrase)"),
    ServerOption(
      "tls-port",
      .value(placeholder: "PORT") { settings, text throws(OptionProblem) in
        settings.tlsPort = UInt16(try OptionSettings.integer(text, 0...65535))
      },
      help: """
        the TLS port (default 7879; 0 picks a free one and logs it); the same
        protocol as --port, which keeps serving plain text
        """),
    ServerOption(
      "tls-ca", .value(placeholder: "FILE") { settings, text in settings.tlsCA = text },
      help: "require a client certificate signed by a CA in FILE on the TLS port"),
    ServerOption(
      "allow-plaintext-auth", .flag { settings, on in settings.configuration.allowPlaintextAuth = on },
      help: """
        let LOGIN, REGISTER, PASSWD and USER ADD/PASSWD send passwords in
        clear from other machines (refused by default: use TLS)
        """),
    ServerOption(
      "http",
      .value(placeholder: "ADDRESS:PORT") { settings, text throws(OptionProblem) in
        settings.configuration.http = try ListenAddress(parsing: text)
      },
      help: """
        serve the live board on http://ADDRESS:PORT/ and Prometheus metrics on
        /metrics (off by default; port 0 picks a free one and logs it)
        """),
    ServerOption(
      "http-names", .flag { settings, on in settings.configuration.httpNames = on },
      help: "show on the board who made each change (hidden by default, as WHO hides them from guests)"),
    .choice(
      "log-format", placeholder: "FORMAT", \.logFormat,
      help: "text (default): one line per event; json: one JSON object per line"),
    ServerOption(
      "log-file",
      .value(placeholder: "FILE") { settings, text in settings.configuration.logFile = text },
      help: "append the log to FILE instead of stderr; SIGHUP reopens it (for logrotate)"),
    ServerOption(
      "quiet", .flag { settings, on in settings.configuration.logging = !on },
      help: "no log lines; a port picked with 0 is still printed, on stdout"),
    ServerOption(
      "config", .command(.config),
      help: """
        read options from FILE, one 'key = value' a line, every option above a key
        (default \(ServerConfiguration.defaultConfigFile) when it exists); the command line wins
        """),
    ServerOption(
      "check-config", .command(.checkConfig),
      help: "check the options, config file, catalogue, TLS files, store and log file, then exit"),
    ServerOption(
      "version", .command(.version), help: "print the version and protocol, as stockroomd 0.1.0 protocol=2"),
    ServerOption("help", short: "h", .command(.help), help: "this text"),
  ]

  /// The option `word` names on the command line (`--max-clients`, `-p`), if any.
  package static func commandLine(_ word: String) -> ServerOption? {
    if word.hasPrefix("--") { return all.first { "--" + $0.name == word } }
    guard word.count == 2, word.hasPrefix("-"), let letter = word.last else { return nil }
    return all.first { $0.short == letter }
  }

  /// The option a config file's `key` sets, if it is one.
  package static func key(_ key: String) -> ServerOption? {
    all.first { $0.name == key && $0.isKey }
  }

  /// The options' part of `--help`: each synopsis, its help beside it, in a column.
  package static var usage: String {
    HelpColumns.text(all.map { ($0.synopsis, $0.help) })
  }
}
