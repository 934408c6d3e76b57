import StockroomEngine

#if canImport(Glibc)
  import Glibc
#endif

/// Every connection MHD holds, as the server accounts for it: its socket, its source, when it
/// was accepted and its phase. MHD's own limits are inactivity and counts; this adds what MHD
/// lacks: an absolute deadline for the request's head (a head trickled a byte at a time resets
/// MHD's timeout forever), and a fair share of the places between sources.
///
/// An entry lives from MHD's notice of the connection to its notice of the close, and MHD closes
/// the socket only after that notice, so under the table's lock an entry's socket is the
/// connection's own: shutting it down can never reach a socket that has since been reused.
struct HTTPConnectionTable {
  private struct Entry {
    let fd: Int32
    let source: PeerSource
    let opened: ContinuousClock.Instant
    var phase: HTTPConnectionPhase
  }

  private var entries: [Int: Entry] = [:]
  private var shares = SourceShares<Int, PeerSource>(
    total: Int(HTTPLimits.connections), perSource: Int(HTTPLimits.connectionsPerAddress))

  /// A connection MHD has just accepted. Given a place, perhaps another source's (that one is
  /// cut), or refused with a 503 and shut down. Returns the event stream cut for it, if any,
  /// which the caller must end.
  mutating func opened(_ key: Int, fd: Int32, source: PeerSource, at now: ContinuousClock.Instant) -> Int? {
    entries[key] = Entry(fd: fd, source: source, opened: now, phase: .head)
    let phases = entries
    switch shares.admit(key, from: source, rank: { phases[$0]?.phase.cutRank ?? 0 }) {
    case .admitted:
      return nil
    case .admittedCutting(let victim, _):
      return cut(victim, .busy)
    case .refused:
      _ = cut(key, .busy)
      return nil
    }
  }

  /// The request's head is whole and reached the router: false when the connection was cut
  /// meanwhile, and must not be answered.
  mutating func answering(_ key: Int) -> Bool {
    guard let entry = entries[key], entry.phase != .cut else { return false }
    if entry.phase == .head { entries[key]?.phase = .answered }
    return true
  }

  /// The connection became event stream `id`.
  mutating func streaming(_ key: Int, id: Int) {
    guard entries[key]?.phase == .answered else { return }
    entries[key]?.phase = .stream(id)
  }

  /// Where the connection comes from, while MHD holds it.
  func source(of key: Int) -> PeerSource? { entries[key]?.source }

  /// MHD closed the connection: the last moment its socket is the connection's.
  mutating func closed(_ key: Int) {
    entries.removeValue(forKey: key)
    shares.release(key)
  }

  /// Closes, with a 408, every connection whose head is not whole `limit` after its accept;
  /// returns how many.
  mutating func expireHeads(olderThan limit: Duration, at now: ContinuousClock.Instant) -> Int {
    let late = entries.filter { $0.value.phase == .head && now - $0.value.opened >= limit }.keys
    for key in late { _ = cut(key, .headTimeout) }
    return late.count
  }

  /// Shuts the connection down, first writing `reply` when nothing has been written to it; it
  /// gives up its place. Returns its event stream's id when it was one.
  mutating func cut(_ key: Int, _ reply: HTTPCannedReply) -> Int? {
    guard let entry = entries[key], entry.phase != .cut else { return nil }
    entries[key]?.phase = .cut
    shares.release(key)
    if entry.phase == .head { reply.send(to: entry.fd) }
    shutdown(entry.fd, Int32(SHUT_RDWR))
    if case .stream(let id) = entry.phase { return id }
    return nil
  }
}
