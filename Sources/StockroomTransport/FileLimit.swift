#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The process's open-file limit, measured against what `--max-clients` asks for.
///
/// Like Redis at start-up: raise the soft limit as far as the hard one allows, keep a reserve for
/// the server's own descriptors (listener, event loops, the database and its log, the log file),
/// and serve fewer clients than asked, with a warning, when even the hard limit is too low.
package struct FileLimit: Sendable, Equatable {
  /// Descriptors the server keeps for itself beyond one per client (Redis keeps 32 too).
  package static let reserved = 32

  /// The soft limit in force after raising it.
  package var limit: Int
  /// How many clients fit under it.
  package var maxClients: Int
  /// Set when fewer clients than asked fit: what to tell the operator.
  package var warning: String?

  /// The process's open-file limits now, or nil when they cannot be read.
  package static func current() -> rlimit? {
    var limits = rlimit()
    return getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limits) == 0 ? limits : nil
  }

  /// Raises the soft limit toward `maxClients + reserved` (never lowers it) and says how many
  /// clients fit.
  package static func adjust(forClients maxClients: Int) -> FileLimit {
    guard var limits = current() else {
      return FileLimit(limit: maxClients + reserved, maxClients: maxClients, warning: nil)
    }
    let wanted = rlim_t(maxClients + reserved)
    if limits.rlim_cur < wanted {
      var raised = limits
      raised.rlim_cur = min(wanted, limits.rlim_max)
      if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
    }
    let limit = Int(clamping: limits.rlim_cur)
    guard limit < maxClients + reserved else {
      return FileLimit(limit: limit, maxClients: maxClients, warning: nil)
    }
    let fitting = max(1, limit - reserved)
    return FileLimit(
      limit: limit, maxClients: fitting,
      warning:
        "the open-file limit is \(limit) (hard limit \(limits.rlim_max)), below --max-clients \(maxClients) + "
        + "\(reserved) the server needs for itself: serving at most \(fitting) clients; raise it with "
        + "`ulimit -n \(maxClients + reserved)` (or LimitNOFILE= in a systemd unit) or lower --max-clients")
  }
}
