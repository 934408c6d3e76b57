/// A task queued for an event loop.
///
/// The closure is wrapped because an array of bare closures stores each one at the generic
/// abstraction level, and putting one there makes a reabstraction thunk: a heap allocation per
/// `execute`, which a change watched by a thousand connections paid a thousand times. As a
/// struct's field the closure is stored as it is.
struct LoopTask {
  let body: @Sendable () -> Void
}
