import Foundation
import StockroomEngine
import StockroomPersistence
import StockroomProtocol
import Synchronization

extension Server {
  /// Everything `/metrics` shows, read now: atomics and one short read of the shop, the same
  /// figures INFO gives people.
  package func metricsText() -> String {
    var out = MetricsText()
    writeProcess(into: &out)
    writeConnections(into: &out)
    writeCommands(into: &out)
    writeShop(into: &out)
    writeCommits(into: &out)
    writeSharedStore(into: &out)
    return out.text
  }

  /// The build and the process: what any Prometheus target reports.
  private func writeProcess(into out: inout MetricsText) {
    out.family(
      "stockroom_build_info", .gauge, "The release and protocol this server runs (always 1).",
      samples: [([("version", ProtocolVersion.serverVersion), ("protocol", String(ProtocolVersion.current))], 1)])
    out.gauge(
      "process_start_time_seconds", "When the server started, in seconds since the Unix epoch.",
      stats.started.timeIntervalSince1970.rounded(.down))
    if let process = ProcessFigures.read() {
      out.family(
        "process_cpu_seconds_total", .counter, "User and system CPU time the server has used, in seconds.",
        samples: [([], process.cpuSeconds)])
      out.gauge("process_resident_memory_bytes", "Resident memory, in bytes.", process.residentBytes)
      out.gauge("process_virtual_memory_bytes", "Virtual memory, in bytes.", process.virtualBytes)
      out.gauge("process_open_fds", "Open file descriptors.", process.openFiles)
      out.gauge("process_max_fds", "The open-file limit (soft).", process.maxFiles)
    }
  }

  /// Connections: now, at most, accepted, turned away, closed for not reading.
  private func writeConnections(into out: inout MetricsText) {
    out.gauge("stockroom_connections", "Clients connected now.", Double(connectedClients))
    out.gauge(
      "stockroom_connections_max",
      "Clients served at once at most (--max-clients, or fewer when the open-file limit is lower).", Double(maxClients))
    out.counter(
      "stockroom_connections_accepted_total", "Connections accepted as clients.",
      stats.totalConnections)
    out.counter(
      "stockroom_connections_rejected_total", "Connections turned away with ERR LIMIT because the server was full.",
      stats.rejectedConnections)
    out.counter(
      "stockroom_slow_consumer_disconnects_total",
      "Connections closed for not reading: unsent output past the hard limit, or a watcher too far behind.",
      stats.slowConsumerDisconnects)
  }

  /// Requests by command and result.
  private func writeCommands(into out: inout MetricsText) {
    var commands: [(labels: [(String, String)], value: Double)] = []
    stats.commands.each { command, code, count in
      // Every command's ok series always, so a rate starts from zero; an error series once seen.
      guard (code == nil && command != nil) || count > 0 else { return }
      commands.append(([("command", command ?? "none"), ("result", code?.rawValue ?? "ok")], Double(count)))
    }
    out.family(
      "stockroom_commands_total", .counter,
      "Request lines answered, by command (none: the line named no command) and result (ok, or the ERR code).",
      samples: commands)
  }

  /// The shop: orders, shortages, logins, watchers, writability.
  private func writeShop(into out: inout MetricsText) {
    let orders = shop.read { $0.ordersMade }
    let readOnly = shop.readOnlyReason != nil
    out.counter("stockroom_orders_total", "Orders the shop has taken (with a database, over its whole life).", orders)
    out.counter(
      "stockroom_shortages_total", "Requests refused with ERR SHORTAGE: not enough stock, nothing taken.",
      stats.shortages)
    out.counter(
      "stockroom_login_failures_total", "LOGIN attempts and PASSWD old passwords that were wrong.",
      stats.failedLogins)
    out.gauge(
      "stockroom_login_throttled_names", "Account names the login throttle is slowing down now.",
      Double(throttle.trackedNames))
    out.gauge("stockroom_watchers", "Connections watching stock events now.", Double(shop.hub.watcherCount))
    out.counter(
      "stockroom_events_dropped_total", "Stock events never delivered because their watcher fell too far behind.",
      stats.eventsDropped)
    out.gauge(
      "stockroom_read_only", "1 while writes are refused after a failed commit or check, else 0.", readOnly ? 1 : 0)
  }

  /// Commits to the store: how many, how long, how large, how they failed.
  private func writeCommits(into out: inout MetricsText) {
    let figures = shop.commitFigures
    out.counter(
      "stockroom_commits_total", "Group commits written to the store.", figures?.commits.load(ordering: .relaxed) ?? 0)
    out.counter(
      "stockroom_committed_changes_total", "Changes those commits held.",
      figures?.committedMutations.load(ordering: .relaxed) ?? 0)
    if let figures {
      out.histogram(
        "stockroom_commit_duration_seconds",
        "Time to write one group commit and, as --fsync says, force it to disk (fsync or PostgreSQL's commit).",
        figures.commitDuration)
      out.histogram("stockroom_commit_batch_size", "Changes in one group commit.", figures.batchSize)
    }
    out.family(
      "stockroom_store_errors_total", .counter,
      "Commits the store (SQLite or PostgreSQL) failed, by kind: io (disk), unreachable (database), logic (refused rows).",
      samples: CommitFailure.Kind.allCases.enumerated().map { index, kind in
        ([("kind", kind.rawValue)], Double(figures?.failures[index] ?? 0))
      })
  }

  /// The shared PostgreSQL store, on a node of several.
  private func writeSharedStore(into out: inout MetricsText) {
    if let shared = shop.changes.sharedFigures {
      out.gauge(
        "stockroom_store_link_up", "1 while this node reaches the shared PostgreSQL store, else 0.",
        shared.connected ? 1 : 0)
      out.gauge(
        "stockroom_changes_waiting",
        "Changes this node holds for its next transaction on the shared store; at \(SharedWriter.queueCapacity) more are refused.",
        Double(shared.waiting))
      out.counter(
        "stockroom_replayed_changes_total", "Changes other nodes committed, replayed into this node's shop.",
        shared.replayed)
      out.counter(
        "stockroom_commit_retries_total", "Shared-store transactions retried after a serialization conflict.",
        shared.retries)
      out.counter(
        "stockroom_store_reloads_total", "Times this node loaded the whole shop again from the shared store.",
        shared.reloads)
      out.counter(
        "stockroom_reads_waited_total",
        "Reads that waited for this node's cache to catch up with the shared store (--reads linearizable).",
        shared.readsWaited)
      out.counter(
        "stockroom_read_catchups_total",
        "Round trips made to catch the cache up for waiting reads; a burst of reads shares one.", shared.readCatchUps)
      out.counter(
        "stockroom_reads_unconfirmed_total",
        "Reads answered from the cache while the shared store could not be reached.", shared.readsUnconfirmed)
    }
  }
}
