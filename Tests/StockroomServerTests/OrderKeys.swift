/// `key=` values for one connection's orders: mostly its own, sometimes one every connection
/// shares (the same key from several users), sometimes one on or past the 64-byte limit.
struct OrderKeys: Sendable {
  let connection: String
  private var counter = 0

  init(connection: String) { self.connection = connection }

  mutating func next(_ random: inout FuzzRandom) -> String {
    counter += 1
    switch random.weighted([(70, 0), (20, 1), (10, 2)]) {
    case 0: return "\(connection)-\(counter)"
    case 1: return "shared-\(random.below(8))"
    default:
      return random.pick([
        "", String(repeating: "k", count: 64), String(repeating: "k", count: 65), "키-\(counter)",
        "k\u{202E}\(counter)", String(repeating: "가", count: 22),
      ])
    }
  }
}
