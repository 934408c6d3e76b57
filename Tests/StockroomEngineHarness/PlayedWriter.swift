import StockroomEngine

/// The writer a `FakeConnectionHost` test plays by hand: queuing does nothing.
final class PlayedWriter: ChangeQueue {
  func enqueue(_ change: ChangeTicket) {}
  func enqueue(_ read: ReadIndexTicket) {}
}
