import CStockroomSystem

/// glibc's `malloc_trim`: the allocator's free pages given back to the kernel.
public enum MallocTrim {
  /// Gives the allocator's free pages back to the kernel: freed memory otherwise stays in the
  /// process, counted in its RSS, for the allocator to reuse. Walks every arena, so it is for
  /// rare moments (after many buffers were freed), not every request.
  @discardableResult
  public static func returnFreePages() -> Bool {
    sr_malloc_trim() == 1
  }
}
