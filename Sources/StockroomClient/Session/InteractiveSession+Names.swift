import StockroomProtocol
import StockroomSystem

/// The names completion and colouring read, kept fresh (see `CatalogNamesCache`).
extension InteractiveSession {
  func completion(for line: String) -> Completer.Completion {
    refreshNamesIfNeeded()
    return Completer(names: nameCache.names).complete(line)
  }

  /// Fetches NAMES, the categories and the diary ids when something may have changed them,
  /// or they have grown old.
  func refreshNamesIfNeeded() {
    let now = MonotonicClock.seconds()
    guard nameCache.isDue(at: now), let connection else { return }
    do {
      // Fetched before it is stored: an event read meanwhile marks the cache stale, which
      // must not overlap a change to it.
      let fresh = try CatalogNamesCache.fetch(over: nameCache.names, diary: identity != nil) {
        line throws(ClientError) in try request(line, on: connection)
      }
      nameCache.keep(fresh, fetchedAt: now)
      renderer.names = fresh
    } catch {
      lost(error)
    }
  }
}
