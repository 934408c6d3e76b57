import Foundation
import StockroomDaemon
import StockroomDomain
import StockroomServer
import StockroomTestSupport
import Testing

@testable import StockroomStorage

/// "An OK means the change is on disk", checked against the disk: a real `stockroomd` is traced
/// (`strace -f`, its sync calls and its socket writes in the order they happened) while it
/// answers an ORDER, for each `--fsync` mode and store, and the setting each mode gives the
/// database (SQLite's `PRAGMA synchronous`, PostgreSQL's `synchronous_commit`) is read back
/// from a store opened as the server opens it. A `kill -9` test cannot tell these apart: the
/// page cache outlives the process.
@Suite("--fsync modes, traced to the disk", .serialized, .timeLimit(.minutes(30)))
struct FsyncModeTests {
  enum Mode: String, CaseIterable, Sendable {
    case always, batch, off

    /// The command line that asks for it; batch's interval is short so its sync comes soon.
    var words: [String] {
      self == .batch ? ["--fsync", "batch", "--fsync-interval", "100"] : ["--fsync", rawValue]
    }
  }

  /// The traced PostgreSQL's own: on the shared cluster another test's backend may flush the
  /// WAL past this node's commit first (PostgreSQL's group commit), leaving no sync to see in
  /// the processes traced here.
  private static let cluster = Result { try PostgresCluster() }

  private static let reads = ["read", "readv", "recvfrom", "recvmsg"]
  private static let writes = ["write", "writev", "sendto", "sendmsg"]
  private static let traced = reads + writes + ["pwrite64", "pwritev"] + SystemCallTrace.syncCalls.sorted()

  /// The policy `stockroomd` would run with, read from the command line as it reads it.
  private func policy(_ mode: Mode) throws -> FsyncPolicy {
    guard case .run(let configuration) = try ServerConfiguration.parse(mode.words, defaultConfigFile: nil) else {
      throw LineClient.Failure(description: "\(mode.words) is not a configuration to run")
    }
    return configuration.fsync
  }

  /// The read of `request` on the client's connection to `port`, and the first write back on
  /// one after it that holds an `OK` line (after the order's `*` rows, strace showing the line
  /// break as `\n`); nil until strace has reported both.
  private static func exchange(
    _ calls: [SystemCallTrace.Call], port: UInt16, request: String
  ) -> (request: SystemCallTrace.Call, reply: SystemCallTrace.Call)? {
    let socket = "<TCP:[127.0.0.1:\(port)->"
    guard
      let read = calls.last(where: { reads.contains($0.name) && $0.text.contains(socket) && $0.text.contains(request) }
      ),
      let reply = calls.first(where: {
        writes.contains($0.name) && $0.text.contains(socket)
          && ($0.text.contains("\"OK ") || $0.text.contains("\\nOK ")) && $0.began > read.returned
      })
    else { return nil }
    return (read, reply)
  }

  /// Traces `process` (and `others`) while `client` orders a banana juice: the calls, and the
  /// request's read and its `OK`'s write among them. The trace goes on until it is stopped.
  private func tracedOrder(
    _ process: Int32, others: [Int32] = [], client: LineClient, port: UInt16
  ) throws -> (SystemCallTrace, SystemCallTrace.Call, SystemCallTrace.Call) {
    let trace = try SystemCallTrace([process] + others, calls: Self.traced)
    #expect(try client.request("ORDER banana_juice").isOK)
    var found: (request: SystemCallTrace.Call, reply: SystemCallTrace.Call)?
    // The client can read the reply before strace has written the write's line.
    try waitUntil(timeout: 30) {
      found = Self.exchange(trace.calls(), port: port, request: "ORDER banana_juice")
      return found != nil
    }
    return (trace, found!.request, found!.reply)
  }

  @Test("SQLite: --fsync always, batch and off set PRAGMA synchronous FULL, NORMAL and OFF", arguments: Mode.allCases)
  func sqlitePragma(mode: Mode) throws {
    let data = try DataDirectory()
    let database = try ShopDatabase(directory: data.path, fsync: try policy(mode))
    let expected: [Mode: Int] = [.always: 2, .batch: 1, .off: 0]
    #expect(try database.writer.scalar("PRAGMA synchronous") == expected[mode])
    // In batch mode the committer's timed checkpoint is the sync; SQLite must not add its own.
    #expect(try database.writer.scalar("PRAGMA wal_autocheckpoint") == (mode == .batch ? 0 : 1000))
  }

  @Test(
    "SQLite: always syncs the WAL after writing it and before the OK; batch leaves it to the timed checkpoint; off never syncs",
    arguments: Mode.allCases)
  func sqliteSyncs(mode: Mode) throws {
    let data = try DataDirectory()
    let (daemon, port) = try data.start(["--loops", "1", "--io", "epoll"] + mode.words)
    let client = try LineClient.greeted(port)
    // Warm: the first commit may do first-time work.
    #expect(try client.request("ORDER banana_juice").isOK)
    let (trace, request, reply) = try tracedOrder(daemon.process.processIdentifier, client: client, port: port)
    let inside = trace.calls().filter { $0.returned > request.returned && $0.began < reply.began }
    let logWrites = inside.filter { $0.name.hasPrefix("pwrite") && $0.text.contains("stockroom.sqlite-wal>") }
    let lastWrite = try #require(logWrites.max { $0.returned < $1.returned }, "no WAL write before the OK")
    // The committer hands the result to the event loop, by its eventfd when the loop sleeps;
    // the loop writes the OK.
    let handOff =
      inside.first { $0.pid == lastWrite.pid && $0.began > lastWrite.returned && $0.text.contains("[eventfd]") }
      ?? reply
    let walSync = { (call: SystemCallTrace.Call) in
      SystemCallTrace.syncCalls.contains(call.name) && call.text.contains("stockroom.sqlite-wal>")
    }
    switch mode {
    case .always:
      #expect(
        inside.contains { walSync($0) && $0.began > lastWrite.returned && $0.returned < handOff.began },
        "no sync of the WAL between its last write and the OK:\n\(inside.map { $0.text.prefix(120) })")
    case .batch:
      try batchSyncs(trace, after: lastWrite)
    case .off:
      // The fold after 50 ms idle writes the tables: a transaction of its own, unsynced too.
      try waitUntil(timeout: 30) {
        trace.calls().contains {
          $0.name.hasPrefix("pwrite") && $0.text.contains("stockroom.sqlite") && $0.began > reply.began
        }
      }
      trace.stop()
      let anySync = trace.calls().filter { SystemCallTrace.syncCalls.contains($0.name) }
      #expect(anySync.isEmpty, "off synced: \(anySync.map(\.text))")
    }
  }

  /// Batch mode: the committer's timer syncs the log soon after the commit, by a checkpoint,
  /// which syncs the WAL and then writes the database file; it may come before the loop has
  /// written the OK. A sync of the commit's own (FULL) is followed by no write of the file.
  private func batchSyncs(_ trace: SystemCallTrace, after commit: SystemCallTrace.Call) throws {
    let committer = { (call: SystemCallTrace.Call) in call.pid == commit.pid && call.began > commit.returned }
    let fileWrite = { (call: SystemCallTrace.Call) in
      call.name.hasPrefix("pwrite") && call.text.contains("stockroom.sqlite>")
    }
    try waitUntil(timeout: 30) { trace.calls().contains { committer($0) && fileWrite($0) } }
    trace.stop()
    let calls = trace.calls().filter(committer)
    let syncs = calls.indices.filter {
      SystemCallTrace.syncCalls.contains(calls[$0].name) && calls[$0].text.contains("stockroom.sqlite-wal>")
    }
    #expect(!syncs.isEmpty, "the WAL was not synced after the commit")
    for index in syncs {
      #expect(
        index + 1 < calls.count && fileWrite(calls[index + 1]),
        "a sync of the WAL that no checkpoint's write follows: \(calls[index...].prefix(3).map { $0.text.prefix(120) })"
      )
    }
  }

  @Test(
    "PostgreSQL: always sets synchronous_commit on for the writer and the flush barriers; batch and off set it off",
    arguments: Mode.allCases)
  func postgresSetting(mode: Mode) throws {
    let url = try PostgresShop.withAccounts(in: PostgresCluster.shared.get())
    let database = try PostgresShopDatabase(url: PostgresURL(url), fsync: try policy(mode))
    let expected = mode == .always ? "on" : "off"
    #expect(try database.writer.query("SHOW synchronous_commit").values.first?[0] == expected)
    #expect(try database.usableConfirmer().query("SHOW synchronous_commit").values.first?[0] == expected)
    #expect(database.flushesSeparately == (mode == .always))
  }

  @Test(
    "PostgreSQL: the OK is written after the commit's answer; with always, after a WAL sync in PostgreSQL",
    arguments: Mode.allCases)
  func postgresCommits(mode: Mode) throws {
    let cluster = try Self.cluster.get()
    let url = try PostgresShop.withAccounts(in: cluster)
    let (daemon, port) = try PostgresShop.node(url, ["--loops", "1", "--io", "epoll"] + mode.words)
    let client = try PostgresShop.client(port, as: "alice")
    // Warm: every connection the node makes for an order (writer, flush barriers) is open.
    for _ in 0..<2 { #expect(try client.request("ORDER banana_juice").isOK) }
    let name = String(url.split(separator: "/").last!)
    let activity = try PostgresConnection(PostgresURL(cluster.url)).query(
      "SELECT pid, backend_type FROM pg_stat_activity WHERE datname = $1 OR backend_type = 'walwriter'", [name]
    ).values
    let backends = activity.filter { $0[1] != "walwriter" }.compactMap { $0[0].flatMap { Int32($0) } }
    let walWriter = activity.filter { $0[1] == "walwriter" }.compactMap { $0[0].flatMap { Int32($0) } }
    #expect(!backends.isEmpty)
    let (trace, request, reply) = try tracedOrder(
      daemon.process.processIdentifier, others: backends + walWriter, client: client, port: port)
    trace.stop()
    let inside = trace.calls().filter { $0.returned > request.returned && $0.began < reply.began }
    // The node's side of its connections to PostgreSQL.
    let store = "->127.0.0.1:\(cluster.port)]>"
    let sent = inside.filter { Self.writes.contains($0.name) && $0.text.contains(store) && $0.text.contains("COMMIT") }
    let answers = inside.filter {
      Self.reads.contains($0.name) && $0.text.contains(store) && $0.text.contains("COMMIT")
    }
    let firstSent = sent.map(\.began).min() ?? .max
    let lastAnswer = answers.filter { $0.returned > firstSent }.map(\.returned).max()
    #expect(lastAnswer != nil, "no COMMIT answered between the ORDER and its OK")
    let walSyncs = inside.filter { SystemCallTrace.syncCalls.contains($0.name) && $0.text.contains("pg_wal/") }
    switch mode {
    case .always:
      // The change's commit, then the flush barrier's: both answered before the OK, in one
      // read or more.
      let commits = answers.map { $0.text.components(separatedBy: "COMMIT").count - 1 }.reduce(0, +)
      #expect(commits >= 2, "\(commits) COMMIT answers before the OK")
      #expect(
        walSyncs.contains { $0.began > firstSent && $0.returned < lastAnswer ?? 0 },
        "no WAL sync in PostgreSQL between the COMMIT and its answer")
    case .batch, .off:
      let backendSyncs = walSyncs.filter { !walWriter.contains(Int32($0.pid)) }
      #expect(backendSyncs.isEmpty, "a commit waited for its WAL sync: \(backendSyncs.map(\.text))")
    }
  }
}
