/// Where an event stream's connection is with MHD: being written, or put aside until there is
/// something to write. Only a suspended connection is resumed, and MHD keeps a suspended
/// connection alive until then, so a wake from another thread never reaches a freed one.
enum EventStreamPhase: Sendable {
  case running
  case suspended
  /// The response is gone (the connection closed); nothing may touch the connection again.
  case finished
}
