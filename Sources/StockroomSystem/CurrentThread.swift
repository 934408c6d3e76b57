import CStockroomSystem

/// The calling thread, as `top -H`, `perf` and a core dump name it.
package enum CurrentThread {
  /// Names the calling thread; Linux keeps 15 bytes of it, so a longer name is cut there.
  package static func setName(_ name: String) {
    sr_set_thread_name(name)
  }
}
