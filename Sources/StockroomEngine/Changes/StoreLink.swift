/// Whether a node on a shared store can reach it, as its watchers are told.
///
/// While it is down, other nodes may change the stock and this node cannot hear of it, so the
/// levels a watcher last saw may be stale; when it is up again, a `cause=resync` stock event for
/// every item whose level moved meanwhile comes first, then `up`.
package enum StoreLink: Sendable, Equatable {
  case down(reason: String)
  case up
}
