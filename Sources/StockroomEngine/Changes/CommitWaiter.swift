/// Someone with replies held for a commit: a connection, told on its own event loop.
///
/// A protocol rather than a closure per request: a commit of fifty orders would otherwise
/// allocate fifty closures and load fifty weak references just to say "done".
package protocol CommitWaiter: AnyObject, Sendable {
  var executor: any LoopExecutor { get }
  /// The commit has finished, well or badly; the ticket's outcome says which. Called on `executor`.
  func commitFinished()
}
