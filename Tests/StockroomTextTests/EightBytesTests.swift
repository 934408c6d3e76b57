import StockroomText
import Testing

/// `EightBytes` reads a buffer of any length as words: a short one padded at once, a long one
/// eight bytes at a time with the last word overlapping.
@Suite(.timeLimit(.minutes(30)))
struct EightBytesTests {
  @Test("fewer than eight bytes are one word in memory order, the rest the filler")
  func paddedSpellsTheBytes() {
    let bytes: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77]
    for count in 0..<8 {
      var expected: UInt64 = 0
      for index in 0..<8 { expected |= UInt64(index < count ? bytes[index] : 0x61) << UInt64(index * 8) }
      let word = bytes.withUnsafeBufferPointer {
        EightBytes.padded(UnsafeBufferPointer(rebasing: $0[..<count]), filler: 0x61)
      }
      #expect(word == expected, "\(count) bytes")
    }
  }

  @Test("a byte that fails the check is found at every position of every length up to 24")
  func allSatisfyFindsEveryPosition() {
    for length in 0...24 {
      var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
      bytes.withUnsafeBufferPointer { #expect(EightBytes.allASCII($0), "\(length) plain bytes") }
      for position in 0..<length {
        bytes[position] = 0xC3
        bytes.withUnsafeBufferPointer { #expect(!EightBytes.allASCII($0), "\(length) bytes, 0xC3 at \(position)") }
        bytes[position] = UInt8(ascii: "x")
      }
    }
  }

  @Test("a short buffer lying in the middle of a longer one is read alone, not with its neighbours")
  func shortSliceReadsOnlyItsBytes() {
    let bytes: [UInt8] = [0xFF, 0xFF, 0xFF, 0x41, 0x42, 0x43, 0xFF, 0xFF, 0xFF, 0xFF]
    let word = bytes.withUnsafeBufferPointer {
      EightBytes.padded(UnsafeBufferPointer(rebasing: $0[3..<6]), filler: 0x20)
    }
    #expect(word == 0x2020_2020_2043_4241)
    bytes.withUnsafeBufferPointer { #expect(EightBytes.allASCII(UnsafeBufferPointer(rebasing: $0[3..<6]))) }
  }
}
