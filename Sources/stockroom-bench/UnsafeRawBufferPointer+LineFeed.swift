#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension UnsafeRawBufferPointer {
  /// The index of the first LF at or after `start`; memchr because every reply byte passes here.
  func lineFeed(from start: Int) -> Int? {
    guard let base = baseAddress, start < count,
      let found = memchr(base + start, Int32(UInt8(ascii: "\n")), count - start)
    else { return nil }
    return base.distance(to: UnsafeRawPointer(found))
  }
}
