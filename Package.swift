// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "Stockroom",
  products: [
    .executable(name: "stockroomd", targets: ["stockroomd"]),
    .executable(name: "stockroom-bench", targets: ["stockroom-bench"]),
    .executable(name: "stockroom-ceiling", targets: ["stockroom-ceiling"]),
    .library(name: "StockroomProtocol", targets: ["StockroomProtocol"]),
    .executable(name: "stockroom", targets: ["stockroom"]),
    .library(name: "StockroomClient", targets: ["StockroomClient"]),
  ],
  targets: [
    // What the shop's rules and the wire share: how a client's word is quoted back, and roles.
    .target(name: "StockroomText", dependencies: ["CStockroomICU"]),
    // ICU's UTS #39 calls (confusable names, script rules) behind plain C types, so that no ICU
    // name reaches a Swift module beside Foundation's own copy of ICU.
    .target(name: "CStockroomICU", dependencies: ["CICU"]),
    // System ICU, from Debian's libicu-dev: linked, its headers read by CStockroomICU alone.
    .systemLibrary(name: "CICU", pkgConfig: "icu-i18n", providers: [.apt(["libicu-dev"])]),
    // The shop itself: catalogue, stock, recipes, orders, diary, products, exhibits. No I/O.
    .target(name: "StockroomDomain", dependencies: ["StockroomText"]),
    // The wire: tokenizer, quoting, command table, reply encoding. Shared by server and clients.
    .target(name: "StockroomProtocol", dependencies: ["StockroomText"]),
    // System SQLite, from Debian's libsqlite3-dev.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    // System libsodium, from Debian's libsodium-dev: Argon2id and wiping secrets.
    .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
    // System libpq, from Debian's libpq-dev: the PostgreSQL client library.
    .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
    // System OpenSSL, from Debian's libssl-dev: TLS for the server, the client and the bench.
    .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
    // System GNU libmicrohttpd, from Debian's libmicrohttpd-dev: the board's and /metrics' HTTP.
    .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
    // System libqrencode, from Debian's libqrencode-dev: the board's join link as a QR code.
    .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
    // TLS over a socket, shaped like read and write, with no loop of its own: contexts,
    // connections and what failed.
    .target(name: "StockroomTLS", dependencies: ["COpenSSL"]),
    // One blocking client socket, plain or TLS, that the REPL client and the bench both speak through.
    .target(name: "StockroomSocket", dependencies: ["StockroomSystem", "StockroomTLS"]),
    // Passwords: the secret itself, Argon2id hashes, and the threads that make and check them.
    .target(name: "StockroomSecurity", dependencies: ["CSodium"]),
    // The shop's SQLite file (schema and migrations, loading and checking, batched writes, backup),
    // the PostgreSQL connection a shared store is built on, and the catalogue file (the shipped one
    // is a resource here).
    .target(
      name: "StockroomStorage", dependencies: ["StockroomDomain", "StockroomText", "CSQLite", "CLibPQ"],
      resources: [.copy("Resources/catalog.json")],
      // The fold's rows and the commit's record go through it on every durable order.
      swiftSettings: requestPathSettings),
    // epoll, eventfd, pipe2 and accept4, which Glibc's Swift module does not offer.
    .target(name: "CStockroomSystem"),
    // The thin system layer every program shares: Errno, EINTR-retrying syscalls, socket
    // addresses, the monotonic clock, a semaphore, thread names.
    .target(name: "StockroomSystem", dependencies: ["CStockroomSystem"]),
    // Leveled, structured log lines to standard error or a file, shaped like swift-log.
    .target(name: "StockroomLogging", dependencies: ["StockroomSystem", "StockroomText"]),
    // What the bench and the tests set up around a server and nothing ships: programs started
    // with a clean signal mask, a throw-away PostgreSQL cluster, loopback certificates.
    .target(name: "StockroomFixtures", dependencies: ["StockroomSystem", "CStockroomSystem"]),
    // The shop's engine, without sockets, event loops, Dispatch or a database driver: connection
    // cores and sessions, the command handlers and their replies, the store and the seam its
    // change paths plug into (`ChangePath`), watching, counters.
    .target(
      name: "StockroomEngine",
      dependencies: [
        "StockroomDomain", "StockroomProtocol", "StockroomText", "StockroomSecurity", "StockroomSystem",
        "StockroomLogging",
      ],
      swiftSettings: requestPathSettings
    ),
    // The change paths with a disk, which drive SQLite and libpq for the engine: the SQLite
    // committer, and the PostgreSQL shared writer with its feed and flusher.
    .target(
      name: "StockroomPersistence",
      dependencies: [
        "StockroomEngine", "StockroomStorage", "StockroomDomain", "StockroomSystem", "StockroomLogging",
      ]
    ),
    // Bytes on sockets: the epoll and Dispatch loops, listeners, connections, TLS, and the board's
    // and /metrics' HTTP (libmicrohttpd).
    .target(
      name: "StockroomTransport",
      dependencies: [
        "StockroomEngine", "StockroomProtocol", "StockroomDomain", "StockroomSystem", "CStockroomSystem",
        "StockroomTLS", "StockroomLogging", "StockroomText", "CMicroHTTPD", "CQRencode",
      ],
      swiftSettings: requestPathSettings
    ),
    // The small piece that wires engine, transport and storage into one running server.
    .target(
      name: "StockroomServer",
      dependencies: [
        "StockroomEngine", "StockroomPersistence", "StockroomTransport", "StockroomDomain", "StockroomProtocol",
        "StockroomStorage", "StockroomSecurity", "StockroomSystem", "StockroomTLS", "StockroomLogging",
      ]
    ),
    // stockroomd's command line: options, the config file, and the offline subcommands.
    .target(
      name: "StockroomDaemon",
      dependencies: [
        "StockroomServer", "StockroomEngine", "StockroomTransport", "StockroomDomain", "StockroomProtocol",
        "StockroomStorage", "StockroomSecurity", "StockroomSystem", "StockroomTLS", "StockroomLogging",
        "StockroomText",
      ]
    ),
    .executableTarget(name: "stockroomd", dependencies: ["StockroomDaemon"]),
    // The load generator, the maker of large databases for measuring start-up, and the
    // comparison `Scripts/bench` runs (servers, rounds, sections, tables).
    .executableTarget(
      name: "stockroom-bench",
      dependencies: [
        "StockroomProtocol", "StockroomDomain", "StockroomStorage", "StockroomTLS", "CStockroomSystem",
        "StockroomSystem", "StockroomFixtures", "StockroomSocket",
      ]
    ),
    // The bench's C ceiling: a minimal epoll server answering every line as stockroomd answers
    // PING, so that the bench prints the least any server could spend beside the two it compares.
    .executableTarget(name: "stockroom-ceiling"),
    // The REPL client: system libedit, non-variadic C wrappers for it, the client library.
    .systemLibrary(name: "CLibedit", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
    .target(name: "CStockroomShims", dependencies: ["CLibedit"]),
    .target(
      name: "StockroomClient",
      dependencies: [
        "StockroomProtocol", "StockroomText", "CStockroomShims", "CLibedit", "StockroomTLS", "StockroomSystem",
        "StockroomSocket",
      ]),
    .executableTarget(name: "stockroom", dependencies: ["StockroomClient"]),
    // What the test targets share: tmux sessions, and StockroomFixtures' programs, PostgreSQL
    // cluster and certificates under the names the tests use.
    .target(
      name: "StockroomTestSupport", dependencies: ["StockroomSystem", "StockroomFixtures"],
      path: "Tests/StockroomTestSupport"),
    // The engine with `EmbeddedChannel`s for sockets and a shop in memory or on a store it is
    // handed (`EngineHarness`): no socket layer, no storage driver. The engine's tests run on it,
    // and the server's tests open it on a real store.
    .target(
      name: "StockroomEngineHarness",
      dependencies: [
        "StockroomEngine", "StockroomDomain", "StockroomProtocol", "StockroomText", "StockroomSecurity",
        "StockroomSystem", "StockroomLogging",
      ],
      path: "Tests/StockroomEngineHarness"),
    // The engine's own tests: commands, sessions and replies through the harness, with no socket,
    // no server and no SQLite or libpq linked (ImportRuleTests keeps it so).
    .testTarget(
      name: "StockroomEngineTests",
      dependencies: [
        "StockroomEngineHarness", "StockroomEngine", "StockroomDomain", "StockroomProtocol", "StockroomText",
        "StockroomSecurity", "StockroomSystem", "StockroomLogging",
      ]),
    .testTarget(
      name: "StockroomClientTests",
      dependencies: [
        "StockroomClient", "StockroomProtocol", "StockroomServer", "StockroomDomain", "StockroomTestSupport",
        "StockroomTLS", "CStockroomSystem", "StockroomStorage", "StockroomDaemon", "StockroomTransport",
        "StockroomEngine", "StockroomLogging", "StockroomSystem",
      ]
    ),
    .testTarget(name: "StockroomDomainTests", dependencies: ["StockroomDomain", "StockroomText"]),
    .testTarget(name: "StockroomProtocolTests", dependencies: ["StockroomProtocol"]),
    .testTarget(
      name: "StockroomServerTests",
      dependencies: [
        "StockroomServer", "StockroomProtocol", "StockroomDomain", "StockroomStorage", "StockroomTestSupport",
        "StockroomSecurity", "StockroomSystem", "StockroomTLS", "StockroomEngine", "StockroomTransport",
        "StockroomDaemon", "StockroomLogging", "stockroom-bench", "StockroomEngineHarness",
      ]
    ),
    .testTarget(name: "StockroomSecurityTests", dependencies: ["StockroomSecurity"]),
    .testTarget(name: "StockroomTextTests", dependencies: ["StockroomText"]),
    // The system layer's own: spawning with clean signals, exit statuses.
    .testTarget(name: "StockroomSystemTests", dependencies: ["StockroomSystem", "CStockroomSystem"]),
    // The SQLite and PostgreSQL layers on their own, on real files and a real cluster.
    .testTarget(
      name: "StockroomStorageTests",
      dependencies: ["StockroomStorage", "StockroomDomain", "StockroomTestSupport", "StockroomFixtures"]),
    // TLSChannel over a socket pair, without a server.
    .testTarget(name: "StockroomTLSTests", dependencies: ["StockroomTLS", "StockroomTestSupport", "TLSExitProbe"]),
    // A program that starts TLS and exits, for StockroomTLSTests to see what OpenSSL does at exit.
    .executableTarget(name: "TLSExitProbe", dependencies: ["StockroomTLS", "COpenSSL"], path: "Tests/TLSExitProbe"),
    // Which layer may import which: reads the sources, links nothing of them.
    .testTarget(name: "StockroomArchitectureTests"),
    // The load generator's own logic: options, /proc parsing, events, the histogram, the report and
    // its JSON, the comparison's options, tables and figure check; its runs and its launcher against
    // real servers; and `compare` as a process, refusing bad input and running --smoke.
    .testTarget(
      name: "StockroomBenchTests",
      dependencies: ["stockroom-bench", "StockroomSystem", "StockroomFixtures", "StockroomTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)

/// The request path's modules (the connection core and the commands, the loops and the
/// connections) drop the run-time exclusivity checks in release builds: every connection's
/// state is a class's stored property reached on its loop's thread, and each access cost a call
/// into the runtime and a thread-local lookup, a quarter of a PING's instructions (callgrind,
/// 2026-12-06, issue 24). So does the SQLite store every durable order is committed and folded
/// through (1.9K instructions an order, issue 46). Debug builds, which the tests run, keep
/// every check, and the compiler still proves exclusivity statically wherever it can in both.
var requestPathSettings: [SwiftSetting] {
  [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
}
