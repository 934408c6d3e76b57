import Foundation

/// Bytes of a record of either store's log, written field by field after its layout
/// (`RecordLayout`): integers as LEB128 varints (zig-zag for those that may be negative), text
/// as its length and UTF-8, times as the bits of their `Double`. A banana juice's commit record
/// (`CommitRecord`) is about 150 bytes, so a WAL page holds many; its change record
/// (`MutationRecord`) about 40.
struct RecordWriter {
  private(set) var bytes: [UInt8] = []

  init(capacity: Int) { bytes.reserveCapacity(capacity) }

  /// The first number of every record.
  mutating func layout(_ layout: RecordLayout) {
    unsigned(layout.rawValue)
  }

  mutating func unsigned(_ value: UInt64) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  /// Small magnitudes of either sign in few bytes: 0, -1, 1, -2 … become 0, 1, 2, 3 ….
  private static func zigzag(_ value: Int) -> UInt64 {
    let wide = Int64(value)
    return UInt64(bitPattern: (wide << 1) ^ (wide >> 63))
  }

  mutating func int(_ value: Int) {
    unsigned(Self.zigzag(value))
  }

  mutating func optionalInt(_ value: Int?) {
    // 0 for none, else the value's zig-zag plus one; an order id is never the largest Int.
    guard let value else { return unsigned(0) }
    unsigned(Self.zigzag(value) &+ 1)
  }

  mutating func double(_ value: Double) {
    var bits = value.bitPattern
    for _ in 0..<8 {
      bytes.append(UInt8(truncatingIfNeeded: bits))
      bits >>= 8
    }
  }

  /// A time exactly: the bits of its own `Double` (since 2001), so that a replayed mutation
  /// stamps what the first application stamped, to the bit.
  mutating func date(_ value: Date) {
    double(value.timeIntervalSinceReferenceDate)
  }

  mutating func flag(_ value: Bool) {
    unsigned(value ? 1 : 0)
  }

  /// 0 for none, else the text's length plus one and its UTF-8.
  mutating func optionalText(_ value: String?) {
    guard var value else { return unsigned(0) }
    value.withUTF8 { utf8 in
      unsigned(UInt64(utf8.count) + 1)
      bytes.append(contentsOf: utf8)
    }
  }

  mutating func text(_ value: String) {
    // A native string's bytes are read where they lie; `withUTF8` on a copy of the string
    // (it must be `var`) retains and releases it, for nothing unless it is a bridged one.
    let written: Void? = value.utf8.withContiguousStorageIfAvailable { utf8 in
      unsigned(UInt64(utf8.count))
      bytes.append(contentsOf: utf8)
    }
    guard written == nil else { return }
    var value = value
    value.withUTF8 { utf8 in
      unsigned(UInt64(utf8.count))
      bytes.append(contentsOf: utf8)
    }
  }

  /// A text that `build` appends as UTF-8, written like `text(_:)`. Built in place after a
  /// one-byte length, which a text of 128 bytes or more widens afterwards: built aside and
  /// copied, an order's two texts cost ~340 instructions more (emptying the scratch space, the
  /// copy).
  mutating func text(building build: (inout [UInt8]) -> Void) {
    let lengthAt = bytes.count
    bytes.append(0)
    build(&bytes)
    let length = bytes.count - lengthAt - 1
    guard length >= 0x80 else { return bytes[lengthAt] = UInt8(length) }
    var prefix = RecordWriter(capacity: 10)
    prefix.unsigned(UInt64(length))
    bytes.replaceSubrange(lengthAt...lengthAt, with: prefix.bytes)
  }
}
