import CStockroomSystem

/// The C allocator's heap, as a whole.
public enum Heap {
  /// Gives the allocator's free pages back to the kernel (glibc's `malloc_trim`): freed memory
  /// otherwise stays in the process, counted in its RSS, for the allocator to reuse. Walks every
  /// arena, so it is for rare moments (after many buffers were freed), not every request.
  @discardableResult
  public static func returnFreePages() -> Bool {
    sr_malloc_trim() == 1
  }
}
