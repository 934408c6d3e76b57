import Foundation
import StockroomDomain

/// Reads `CompactMutations`' form from its bytes, one mutation at a time, without making a
/// string for anything but the strings it holds.
struct CompactMutationsReader {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var index: Int

  init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) {
    self.bytes = bytes
    self.index = start
  }

  var atEnd: Bool { index == bytes.count }

  mutating func mutation() throws(CompactMutationsError) -> Mutation {
    try expect(UInt8(ascii: ";"))
    let kind = try byte()
    try expect(UInt8(ascii: " "))
    let user = try string()
    let lines = try itemCounts()
    switch kind {
    case UInt8(ascii: "o"):
      try expect(UInt8(ascii: " "))
      let bits = try number(radix: 16)
      try expect(UInt8(ascii: " "))
      let at = Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(bitPattern: Int64(bits))))
      if index < bytes.count && bytes[index] == UInt8(ascii: "-") {
        index += 1
        return .order(user: user, lines: lines, at: at, key: nil)
      }
      return .order(user: user, lines: lines, at: at, key: try string())
    case UInt8(ascii: "r"):
      return .restock(user: user, changes: lines)
    default:
      throw CompactMutationsError(offset: index)
    }
  }

  /// ` COUNT (ITEM NUMBER)…`, the space before each field included.
  private mutating func itemCounts() throws(CompactMutationsError) -> [ItemCount] {
    try expect(UInt8(ascii: " "))
    let count = try number(radix: 10)
    guard count >= 0, count <= bytes.count else { throw CompactMutationsError(offset: index) }
    var lines: [ItemCount] = []
    lines.reserveCapacity(count)
    for _ in 0..<count {
      try expect(UInt8(ascii: " "))
      let item = try string()
      try expect(UInt8(ascii: " "))
      lines.append(ItemCount(item, try number(radix: 10)))
    }
    return lines
  }

  /// `LENGTH:BYTES`.
  private mutating func string() throws(CompactMutationsError) -> String {
    let length = try number(radix: 10)
    try expect(UInt8(ascii: ":"))
    guard length >= 0, length <= bytes.count - index else { throw CompactMutationsError(offset: index) }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + length]), as: UTF8.self)
    index += length
    return text
  }

  /// A signed whole number; for radix 16, the 64 bits of a `UInt64` read as an `Int64`.
  private mutating func number(radix: Int) throws(CompactMutationsError) -> Int {
    var negative = false
    if index < bytes.count && bytes[index] == UInt8(ascii: "-") && radix == 10 {
      negative = true
      index += 1
    }
    let start = index
    var value: UInt64 = 0
    while index < bytes.count, let digit = Self.digit(bytes[index], radix: radix) {
      let (shifted, overflow) = value.multipliedReportingOverflow(by: UInt64(radix))
      guard !overflow, index - start < 20 else { throw CompactMutationsError(offset: index) }
      value = shifted + UInt64(digit)
      index += 1
    }
    guard index > start else { throw CompactMutationsError(offset: index) }
    if radix == 16 { return Int(Int64(bitPattern: value)) }
    guard value <= UInt64(Int.max) else { throw CompactMutationsError(offset: index) }
    return negative ? -Int(value) : Int(value)
  }

  private static func digit(_ byte: UInt8, radix: Int) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: return Int(byte - UInt8(ascii: "a")) + 10
    default: return nil
    }
  }

  private mutating func byte() throws(CompactMutationsError) -> UInt8 {
    guard index < bytes.count else { throw CompactMutationsError(offset: index) }
    defer { index += 1 }
    return bytes[index]
  }

  private mutating func expect(_ expected: UInt8) throws(CompactMutationsError) {
    guard try byte() == expected else { throw CompactMutationsError(offset: index - 1) }
  }
}
