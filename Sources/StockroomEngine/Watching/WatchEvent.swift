import StockroomDomain

/// What a watcher is told, in the order it happened.
package enum WatchEvent: Sendable, Equatable {
  /// A committed change of one item's level (or a resync of it after the store came back).
  case stock(StockEvent)
  /// The node lost or regained its shared store; see `StoreLink`.
  case store(StoreLink)

  /// Whether a watcher of `filter` (nil: everything) is told: store events concern every item.
  package func concerns(_ filter: Set<String>?) -> Bool {
    switch self {
    case .stock(let event): filter?.contains(event.item) ?? true
    case .store: true
    }
  }
}
