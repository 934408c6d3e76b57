/// 128 bits standing in for an order key in memory, so that a million keys cost a fixed few
/// bytes each whatever their length. Swift's hasher is seeded afresh in every process, so a
/// client cannot aim for a collision; by chance, two keys share a digest about as often as two
/// random 128-bit numbers are equal.
struct KeyDigest: Sendable, Hashable {
  var high: UInt64
  var low: UInt64

  init(_ key: OrderKey) {
    func half(_ salt: UInt8) -> UInt64 {
      var hasher = Hasher()
      hasher.combine(salt)
      hasher.combine(key.user)
      hasher.combine(key.key)
      return UInt64(UInt(bitPattern: hasher.finalize()))
    }
    high = half(0)
    low = half(1)
  }

  /// The lines an order asked for, to tell a retry from a different order under the same key.
  static func requested(_ lines: [ItemCount]) -> UInt64 {
    requested(text: ItemCount.listText(lines))
  }

  /// The same from the lines' text, which a store keeps: no need to take it apart at start-up.
  static func requested(text: String) -> UInt64 {
    var hasher = Hasher()
    hasher.combine(text)
    return UInt64(UInt(bitPattern: hasher.finalize()))
  }
}
