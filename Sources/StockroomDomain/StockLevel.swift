/// One stocked item's level and the ledger totals behind it.
///
/// The invariant `initial + restocked - corrected - taken == current` holds after every change;
/// tests and (later) start-up checks rely on it.
public struct StockLevel: Sendable, Hashable, Codable {
  public var initial: Int
  public var restocked: Int = 0
  public var corrected: Int = 0
  public var taken: Int = 0
  public var current: Int

  public init(initial: Int) {
    self.initial = initial
    self.current = initial
  }

  public var balances: Bool { initial + restocked - corrected - taken == current }
}
