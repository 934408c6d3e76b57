import StockroomDomain
import Synchronization

/// How the shop follows its disk through a failed commit and back (the SQLite committer's side).
extension LockedShop {
  /// A commit failed: go back to what the disk holds (`reloaded`, read outside the lock), so the
  /// shop in memory never runs ahead of the disk; an I/O failure also refuses writes until the
  /// disk takes them again. `failPending` fails what was queued after the failed commit; it runs
  /// under the lock, so no change can join the queue between it and the read-back. Returns false
  /// when the disk could not be read back: then the shop in memory is not what the disk holds,
  /// and writes stay refused (rather than exiting, which would stop reads too) until a reload works.
  package func commitFailed(
    _ failure: CommitFailure, reloaded: Result<ShopState, any Error>, failPending: () -> Void
  ) -> Bool {
    state.withLock { state in
      failPending()
      switch failure.kind {
      case .io: state.writability = .diskFailing(failure.message)
      case .unreachable: state.writability = .unreachable(failure.message)
      case .logic: break
      }
      switch reloaded {
      case .success(let shop):
        replaceShop(shop, in: &state)
        return true
      case .failure(let error):
        state.writability = state.writability.unreadable(after: error)
        return false
      }
    }
  }

  /// Writing works again; a shop that could not be read back after a failure is read now, with
  /// `reload`, outside the lock. Returns false when it still cannot be, and writes stay refused.
  package func recovered(reload: () throws -> ShopState) -> Bool {
    let readBack = state.withLock { $0.writability.needsReadBack }
    let reloaded = readBack ? Result { try reload() }.map(Optional.some) : .success(nil)
    return state.withLock { state in
      switch reloaded {
      case .success(let shop):
        if let shop { replaceShop(shop, in: &state) }
        state.restoreWritability()
        return true
      case .failure(let error):
        state.writability = state.writability.unreadable(after: error)
        return false
      }
    }
  }
}
