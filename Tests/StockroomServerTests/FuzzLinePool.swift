/// Request lines made once per run and sent by many connections: making a line (picking from the
/// command table, mangling it, working out its fate) costs far more in the unoptimized test build
/// than the server takes to answer it, so connections mostly draw from here and make a few fresh.
///
/// Only lines the server answers and goes on after are pooled, and none that costs a password
/// hash: `FuzzScript` adds the lines that end a conversation and the password lines at its own
/// rate, so that conversations are long and the two hashing threads are not what every
/// connection waits on. Lines of kilobytes (long texts and words) are kept one time in ten: they
/// are what the server spends its time on, and a few of them in the pool test the same limits.
struct FuzzLinePool: Sendable {
  let lines: [FuzzLine]

  static let size = 4096
  static let bigLine = 2048

  init(seed: UInt64, generator: RequestGenerator) {
    var random = FuzzRandom(seed: seed, stream: UInt64.max)
    var keys = OrderKeys(connection: "pool")
    var lines: [FuzzLine] = []
    lines.reserveCapacity(Self.size)
    while lines.count < Self.size {
      let line = FuzzLine(generator.line(&random, keys: &keys, passwords: false), maxLine: generator.maxLine)
      guard line.fate == .answered && !line.isPasswordAttempt else { continue }
      if line.bytes.count > Self.bigLine && !random.percent(10) { continue }
      lines.append(line)
    }
    self.lines = lines
  }

  func pick(_ random: inout FuzzRandom) -> FuzzLine { lines[random.below(lines.count)] }
}
