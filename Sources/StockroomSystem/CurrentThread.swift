import CStockroomSystem

/// The calling thread, as `top -H`, `perf` and a core dump name it.
package enum CurrentThread {
  /// Names the calling thread; Linux keeps 15 bytes of it, so a longer name is cut there.
  package static func setName(_ name: String) {
    sr_set_thread_name(name)
  }

  /// Whether this thread ends every round of its work with a call that lets what it queued for
  /// a group commit be written (`EventLoop`'s round end): a change queued here may wait for that
  /// call instead of waking the committer at once. False on every other thread.
  package static var endsRounds: Bool {
    get { sr_ends_rounds() != 0 }
    set { sr_set_ends_rounds(newValue ? 1 : 0) }
  }
}
