import StockroomProtocol

/// Everything one fuzzing connection will do, decided from its seed before it connects, so that
/// the same seed, worker and connection number always send the same bytes in the same writes.
struct FuzzScript: Sendable {
  /// `w3c17`: the worker and its connection number, for replaying a failure.
  let label: String
  let behaviour: FuzzBehaviour
  let expectation: FuzzExpectation
  /// The bytes to send: every line of the expectation followed by LF.
  let payload: [UInt8]
  /// Offsets where the payload is cut into separate writes.
  let cuts: [Int]
  /// For a resetter: bytes sent and reply lines read before the reset.
  let resetAfterBytes: Int
  let linesBeforeReset: Int
  /// For a flood: what each of its connections does.
  let floodActions: [FloodAction]

  enum FloodAction: CaseIterable, Sendable {
    /// Reset at once, most likely before the server has accepted or greeted it.
    case reset
    case pingThenReset
    /// Wait for the first line, which must be the greeting or `ERR LIMIT`, then reset.
    case greetingThenReset
    case close
  }

  /// Requests that make long replies, for connections that do not read to back up.
  private static let heavy = ["LIST dishes", "HELP", "NAMES", "EXPO", "HELP ORDER", "LIST dishes size=100", "STOCK"]

  init(seed: UInt64, worker: Int, connection: Int, generator: RequestGenerator) {
    var random = FuzzRandom(seed: seed, stream: UInt64(worker), UInt64(connection))
    label = "w\(worker)c\(connection)"
    behaviour = random.weighted([(45, .reader), (17, .halfCloser), (14, .silent), (20, .resetter), (4, .flood)])
    var keys = OrderKeys(connection: label)
    var lines: [[UInt8]] = []
    if random.percent(3) { lines.append(random.pick(FuzzVocabulary.crossProtocol)) }
    if random.percent(50) {
      // One of the accounts the fuzzer made, or HELLO, which names no one now.
      let user = random.pick(FuzzVocabulary.accounts)
      let line =
        random.percent(85)
        ? "LOGIN \(Quoting.quote(user.name)) \(Quoting.quote(LineClient.password(for: user.name)))"
        : "HELLO \(Quoting.quote(user.name))"
      lines.append(Array(line.utf8))
    }
    if random.percent(behaviour == .silent ? 40 : 15) {
      lines.append(Array((random.percent(50) ? "WATCH" : "WATCH banana kiwi_juice galbi_jjim p1").utf8))
    }
    let count = random.percent(85) ? random.skewed(1...60) : random.skewed(60...400)
    for _ in 0..<count {
      if behaviour == .silent && random.percent(50) {
        lines.append(Array(random.pick(Self.heavy).utf8))
      } else {
        lines.append(generator.line(&random, keys: &keys))
      }
    }
    expectation = FuzzExpectation(lines: lines, maxLine: generator.maxLine, sentinel: "fuzz-end-\(label)")
    let bytes: [UInt8] = expectation.lines.flatMap { $0 + [0x0A] }
    payload = bytes
    switch random.below(3) {
    case 0: cuts = []
    case 1:
      var offset = 0
      cuts = expectation.lines.map { line in
        offset += line.count + 1
        return offset
      }
    default:
      var picked: [Int] = []
      for _ in 0..<random.skewed(1...40) { picked.append(random.below(bytes.count)) }
      cuts = picked.sorted()
    }
    resetAfterBytes = random.below(bytes.count + 1)
    linesBeforeReset = random.percent(50) ? 0 : random.below(20)
    floodActions = (0..<(5 + random.below(16))).map { _ in random.pick(FloodAction.allCases) }
  }
}
