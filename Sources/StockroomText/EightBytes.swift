/// A buffer's bytes checked eight at a time, read as one 64-bit word, for checks that can look
/// at a word's bytes all at once: a byte-by-byte loop costs several instructions a byte, and the
/// words checked on every request (ids, keys, names) are ASCII that passes.
///
/// Inlinable, so that a check's closure is folded into the loop where it is used.
public enum EightBytes {
  /// 0x01 in every byte.
  public static let ones: UInt64 = 0x0101_0101_0101_0101
  /// 0x80 in every byte.
  public static let highs: UInt64 = 0x8080_8080_8080_8080

  /// Whether `check` holds for every eight bytes of `bytes`, which holds eight or more: when
  /// the count is not a multiple of eight, the last eight are checked too, overlapping the word
  /// before. (Fewer than eight: `allSatisfy(_:filler:_:)`.)
  @inlinable public static func allSatisfy(_ bytes: UnsafeBufferPointer<UInt8>, _ check: (UInt64) -> Bool) -> Bool {
    precondition(bytes.count >= 8, "EightBytes.allSatisfy reads eight bytes at a time")
    let base = UnsafeRawPointer(bytes.baseAddress!)
    let count = bytes.count
    var index = 0
    while index + 8 <= count {
      if !check(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return false }
      index += 8
    }
    return index == count || check(base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
  }

  /// Whether `check` holds for `bytes` whatever their count: eight at a time from eight bytes on,
  /// as `allSatisfy(_:_:)`; fewer than eight as one word (`padded(_:filler:)`), the bytes past
  /// them `filler`, which `check` must pass. Most words a request or a reply holds (a command, an
  /// item's id, a reply's value) are shorter than eight, and a byte-by-byte loop costs ~17
  /// instructions a byte.
  @inlinable public static func allSatisfy(
    _ bytes: UnsafeBufferPointer<UInt8>, filler: UInt8, _ check: (UInt64) -> Bool
  ) -> Bool {
    bytes.count >= 8 ? allSatisfy(bytes, check) : check(padded(bytes, filler: filler))
  }

  /// The bytes of `bytes`, fewer than eight, as one word in memory order (the first byte lowest),
  /// the bytes past them `filler`. Read as two overlapping loads, not a byte at a time.
  @inlinable public static func padded(_ bytes: UnsafeBufferPointer<UInt8>, filler: UInt8) -> UInt64 {
    let count = bytes.count
    precondition(count < 8, "EightBytes.padded takes fewer than eight bytes")
    let fill = (ones &* UInt64(filler)) << UInt64(count &* 8 & 63)
    guard let start = bytes.baseAddress, count > 0 else { return fill }
    let base = UnsafeRawPointer(start)
    let word: UInt64
    switch count {
    case 4...:
      let low = UInt64(UInt32(littleEndian: base.loadUnaligned(as: UInt32.self)))
      let high = UInt64(UInt32(littleEndian: base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
      word = low | high << UInt64((count - 4) &* 8)
    case 2...:
      let low = UInt64(UInt16(littleEndian: base.loadUnaligned(as: UInt16.self)))
      let high = UInt64(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)))
      word = low | high << UInt64((count - 2) &* 8)
    default: word = UInt64(start.pointee)
    }
    return word | fill
  }

  /// Whether some byte of `word` is zero. (Exact for "some": a borrow can mark a byte above a
  /// zero byte too, never one when no byte is zero.)
  @inlinable public static func hasZeroByte(_ word: UInt64) -> Bool {
    (word &- ones) & ~word & highs != 0
  }

  /// Whether some byte of `word` is `byte`.
  @inlinable public static func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool {
    hasZeroByte(word ^ (ones &* UInt64(byte)))
  }

  /// Whether some byte of `word` is below `bound`, for a word whose bytes are all ASCII and a
  /// bound of at most 0x80.
  @inlinable public static func hasByteBelow(_ word: UInt64, _ bound: UInt8) -> Bool {
    (word &- ones &* UInt64(bound)) & ~word & highs != 0
  }

  /// Whether every byte of `bytes` is ASCII, whatever their count.
  @inlinable public static func allASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    allSatisfy(bytes, filler: UInt8(ascii: "a"), isASCII)
  }

  /// Whether every byte of `word` is ASCII.
  @inlinable public static func isASCII(_ word: UInt64) -> Bool { word & highs == 0 }

  /// Whether some byte of `word` is an upper-case ASCII letter, for a word whose bytes are all
  /// ASCII: adding 0x3F carries a byte of "A" or more into its top bit, adding 0x25 one of
  /// past "Z", and an ASCII byte's sum never carries into the next byte.
  @inlinable public static func hasUpperCase(_ word: UInt64) -> Bool {
    (word &+ ones &* 0x3F) & ~(word &+ ones &* 0x25) & highs != 0
  }
}
