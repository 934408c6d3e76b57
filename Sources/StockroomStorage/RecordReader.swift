import Foundation
import StockroomDomain
import StockroomText

/// Reads back what `RecordWriter` wrote, throwing `DamagedRow` for bytes it cannot have written
/// (cut short, a varint too long, text that is not UTF-8).
struct RecordReader {
  private let bytes: [UInt8]
  private var offset = 0
  private let sequence: Int
  private let name: String

  /// `name` and `sequence` name the record in the error of a damaged one: "commit record 7",
  /// "change 12".
  init(_ bytes: [UInt8], sequence: Int, name: String = "commit record") {
    self.bytes = bytes
    self.sequence = sequence
    self.name = name
  }

  var atEnd: Bool { offset == bytes.count }

  func damaged(_ what: String) -> DamagedRow {
    DamagedRow("\(name) \(sequence)", "\(what) at byte \(offset) of \(bytes.count)")
  }

  /// The first number: refuses a record of another layout, or of one this server does not know.
  mutating func layout(_ expected: RecordLayout) throws {
    let found = try unsigned()
    guard found == expected.rawValue else {
      guard let layout = RecordLayout(rawValue: found) else {
        throw damaged("layout \(found), which this server does not know")
      }
      throw damaged("layout \(found) (\(layout)) where \(expected) belongs")
    }
  }

  mutating func unsigned() throws -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while offset < bytes.count, shift < 64 {
      let byte = bytes[offset]
      offset += 1
      value |= UInt64(byte & 0x7f) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
    throw damaged("a number cut short")
  }

  private static func unzigzag(_ value: UInt64) -> Int {
    Int(Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1))))
  }

  mutating func int() throws -> Int { Self.unzigzag(try unsigned()) }

  mutating func optionalInt() throws -> Int? {
    let stored = try unsigned()
    return stored == 0 ? nil : Self.unzigzag(stored - 1)
  }

  /// A count of things that follow, each at least a byte: more than the bytes left is damage.
  mutating func count() throws -> Int {
    let value = try unsigned()
    guard value <= UInt64(bytes.count - offset) else { throw damaged("a count of \(value)") }
    return Int(value)
  }

  mutating func double() throws -> Double {
    guard bytes.count - offset >= 8 else { throw damaged("a time cut short") }
    var bits: UInt64 = 0
    for index in 0..<8 { bits |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
    offset += 8
    return Double(bitPattern: bits)
  }

  mutating func date() throws -> Date {
    Date(timeIntervalSinceReferenceDate: try double())
  }

  mutating func flag() throws -> Bool {
    switch try unsigned() {
    case 0: return false
    case 1: return true
    default: throw damaged("a flag that is neither 0 nor 1")
    }
  }

  mutating func optionalText() throws -> String? {
    let stored = try unsigned()
    guard stored > 0 else { return nil }
    guard stored - 1 <= UInt64(bytes.count - offset) else { throw damaged("a length of \(stored - 1)") }
    return try withUTF8(count: Int(stored - 1)) { String(decoding: $0, as: UTF8.self) }
  }

  mutating func text() throws -> String {
    try withUTF8(count: try count()) { String(decoding: $0, as: UTF8.self) }
  }

  /// A text's bytes, checked to be UTF-8 but not made into a string, lent to `body`: a fold
  /// copies them into its statements' parameters as they are. A slice of the record for each
  /// text retained and released the record's storage, six times an order.
  mutating func withTextBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) throws -> Result {
    try withUTF8(count: try count(), body)
  }

  /// The next `length` bytes, which the caller checked are there, checked to be UTF-8 and lent
  /// to `body` where they lie in the record.
  private mutating func withUTF8<Result>(
    count length: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) throws -> Result {
    let start = offset
    offset += length
    let result: Result? = bytes.withUnsafeBufferPointer { all in
      let text = UnsafeBufferPointer(rebasing: all[start..<start + length])
      return Self.isUTF8(text) ? body(text) : nil
    }
    guard let result else { throw damaged("text that is not UTF-8") }
    return result
  }

  /// Item names and users are mostly ASCII, which needs no decoding to be known valid, and is
  /// checked eight bytes at a time.
  private static func isUTF8(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    EightBytes.allASCII(text) || String(validating: text, as: UTF8.self) != nil
  }
}
