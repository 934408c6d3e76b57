/// The result of applying one mutation: its outcome and the stock changes to announce.
public struct Applied: Sendable, Equatable {
  public var outcome: Outcome
  public var events: [StockEvent]

  public init(outcome: Outcome, events: [StockEvent]) {
    self.outcome = outcome
    self.events = events
  }
}
