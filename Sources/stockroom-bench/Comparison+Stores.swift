import Foundation
import StockroomFixtures
import StockroomSystem

/// PostgreSQL: the same durable ORDER load through one node on SQLite, and through 1, 2 and 3
/// nodes sharing one PostgreSQL store (connections spread over the nodes), taking turns to go
/// first; the nodes' CPU per order from the generator, PostgreSQL's from every process of its
/// cluster (/proc/PID/stat) around a run without warm-up, and the group commits all nodes made.
/// Then STOCK through three nodes with `--reads linearizable` and `--reads cached`: what a read
/// that learns the store's head costs against one answered from the cache.
extension Comparison {
  func compareStores() throws(BenchError) {
    guard Self.postgresInstalled() else {
      print()
      print("PostgreSQL store: skipped (no PostgreSQL server; apt-get install postgresql)")
      return
    }
    let cluster: PostgresCluster
    do {
      cluster = try PostgresCluster()
    } catch {
      throw BenchError("the PostgreSQL cluster did not start: \(error)")
    }
    defer { cluster.remove() }
    var runs: [String] = []
    var reads: [String] = []
    for round in 1...options.rounds {
      let stores = round % 2 == 0 ? SectionTable.stores.reversed() : SectionTable.stores
      for store in stores { runs.append(try measureStore(store, round: round, cluster: cluster)) }
      let modes = round % 2 == 0 ? SectionTable.readModes.reversed() : SectionTable.readModes
      for mode in modes { reads.append(try measureReads(mode, round: round, cluster: cluster)) }
    }
    let orders = options.requests[.orderAlways] ?? 0
    print()
    print("durable ORDER banana_juice, --fsync always (PostgreSQL: synchronous_commit on), through one node on")
    print(
      "SQLite and 1, 2 and 3 nodes on one PostgreSQL store; \(options.connections) connections spread over the nodes,")
    print("\(orders) orders per run, medians of \(options.rounds) round(s); node CPU is all nodes' together:")
    print(SectionTable.stores(runs.map(ResultLine.init)))
    print()
    print("STOCK banana, 1 in flight, \(options.connections) connections over 3 nodes on one PostgreSQL store,")
    print("\(options.requests[.stock1] ?? 0) reads per run, medians of \(options.rounds) round(s):")
    print(SectionTable.reads(reads.map(ResultLine.init)))
    fflush(nil)
  }

  /// One run of `store` (`sqlite` or `postgresql-N`), its result line tagged with PostgreSQL's
  /// CPU per order and the orders per group commit.
  func measureStore(_ store: String, round: Int, cluster: PostgresCluster) throws(BenchError) -> String {
    let nodes = try startNodes(store, round: round, cluster: cluster)
    let orders = options.requests[.orderAlways] ?? 0
    let commitsBefore = nodes.map { ServerProbe.commits(port: $0.port) }.reduce(0, +)
    let (result, postgresCPU) = load(case: "order", requests: orders, nodes: nodes, cluster: cluster)
    let commits = nodes.map { ServerProbe.commits(port: $0.port) }.reduce(0, +) - commitsBefore
    for node in nodes.reversed() { launcher.stop(node) }
    let perCommit = SectionTable.fixed(commits > 0 ? Double(orders) / Double(commits) : 0, 1)
    let cpu = store == "sqlite" ? "0" : postgresCPU
    let line = "store=\(store) round=\(round) postgres_cpu_us_per_order=\(cpu) orders_per_commit=\(perCommit) \(result)"
    CommandLineExit.warn(line)
    return line
  }

  /// One run of STOCK through three nodes started with `--reads mode`, its result line tagged.
  func measureReads(_ mode: String, round: Int, cluster: PostgresCluster) throws(BenchError) -> String {
    let nodes = try startNodes("postgresql-3", round: round, cluster: cluster, extra: ["--reads", mode], tag: mode)
    let (result, postgresCPU) = load(
      case: "stock", requests: options.requests[.stock1] ?? 0, nodes: nodes, cluster: cluster)
    for node in nodes.reversed() { launcher.stop(node) }
    let line = "reads=\(mode) round=\(round) postgres_cpu_us_per_request=\(postgresCPU) \(result)"
    CommandLineExit.warn(line)
    return line
  }

  /// One generator run of `case` with the connections spread over `nodes`: its result line, and
  /// PostgreSQL's CPU per request (every process of the cluster) around it.
  private func load(case name: String, requests: Int, nodes: [RunningServer], cluster: PostgresCluster) -> (
    String, String
  ) {
    let master = Self.postmaster(cluster)
    var arguments = [
      "load", "--case", name, "--pipeline", "1", "--connections", String(options.connections), "--requests",
      String(requests), "--warmup", "0", "--server-pid", String(nodes[0].process.pid), "--target", "stockroom",
      "--host", "127.0.0.1", "--port", String(nodes[0].port),
    ]
    for node in nodes.dropFirst() {
      arguments += ["--also-port", String(node.port), "--also-server-pid", String(node.process.pid)]
    }
    let ticksBefore = Self.clusterTicks(master)
    let result = generate(arguments, against: .stockroom)
    let ticks = Self.clusterTicks(master) - ticksBefore
    let perRequest = Double(ticks) * 1e6 / Double(ServerProcess.ticksPerSecond) / Double(max(requests, 1))
    return (result, SectionTable.fixed(perRequest, 2))
  }

  /// One node on a fresh SQLite folder, or N nodes on a fresh database of the cluster.
  func startNodes(
    _ store: String, round: Int, cluster: PostgresCluster, extra: [String] = [], tag: String = "orders"
  ) throws(BenchError) -> [RunningServer] {
    guard store.hasPrefix("postgresql-"), let count = Int(store.dropFirst("postgresql-".count)) else {
      return [try startNode(["--data", "\(workdir)/data", "--fsync", "always"], log: "stockroomd.log")]
    }
    let database = "shop_\(tag)_\(round)_\(count)"
    try createDatabase(database, cluster: cluster)
    let url = "postgresql://stockroom@127.0.0.1:\(cluster.port)/\(database)"
    var nodes: [RunningServer] = []
    for index in 1...count {
      nodes.append(try startNode(["--store", url, "--fsync", "always"] + extra, log: "node\(index).log"))
    }
    return nodes
  }

  private func startNode(_ arguments: [String], log: String) throws(BenchError) -> RunningServer {
    for _ in 1...3 {
      if let node = try launcher.startStockroom(arguments, log: "\(workdir)/\(log)") { return node }
    }
    let text = (try? String(contentsOfFile: "\(workdir)/\(log)", encoding: .utf8)) ?? ""
    throw BenchError("stockroomd did not start (log below)\n\(text)")
  }

  private func createDatabase(_ name: String, cluster: PostgresCluster) throws(BenchError) {
    guard let psql = ChildProcess.find("psql") else { throw BenchError("psql is needed for the PostgreSQL section") }
    let run = try ChildProcess(
      psql,
      [
        "-q", "-h", "127.0.0.1", "-p", String(cluster.port), "-U", "stockroom", "postgres", "-c",
        "CREATE DATABASE \(name)",
      ],
      stderr: "\(workdir)/psql.err")
    guard run.wait(seconds: 60) == 0 else { throw BenchError("CREATE DATABASE \(name) failed") }
  }

  /// User + system clock ticks of the postmaster and every process it started.
  static func clusterTicks(_ master: Int32?) -> Int {
    guard let master else { return 0 }
    return ([master] + ServerProcess.children(of: master)).reduce(0) { total, pid in
      total + ((try? ServerProcess(pid: pid).cpuTicks()) ?? 0)
    }
  }

  /// The postmaster's pid, the first line of its `postmaster.pid`.
  static func postmaster(_ cluster: PostgresCluster) -> Int32? {
    let text = try? String(contentsOfFile: "\(cluster.directory)/data/postmaster.pid", encoding: .utf8)
    return text?.split(separator: "\n").first.flatMap { Int32($0) }
  }

  /// Debian keeps the server programs in /usr/lib/postgresql/VERSION/bin.
  static func postgresInstalled() -> Bool {
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
    return versions.contains { access("/usr/lib/postgresql/\($0)/bin/initdb", X_OK) == 0 }
  }
}
