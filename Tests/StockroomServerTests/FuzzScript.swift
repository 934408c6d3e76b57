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

  /// A reader that sends `lines` in one write: a case found by fuzzing, kept as it was sent.
  init(label: String, lines: [String], maxLine: Int) {
    self.label = label
    behaviour = .reader
    expectation = FuzzExpectation(
      lines: lines.map { FuzzLine(Array($0.utf8), maxLine: maxLine) }, sentinel: "fuzz-end-\(label)")
    payload = expectation.lines.flatMap { $0 + [0x0A] }
    cuts = []
    resetAfterBytes = payload.count
    linesBeforeReset = 0
    floodActions = []
  }

  /// How a conversation's length is drawn: half are a few dozen lines, the rest run to hundreds or
  /// thousands, so that the server's state (pipelines, watches, a login) lives long and the
  /// LOGIN that starts a conversation, an Argon2id check, is paid for by many requests.
  private static func lineCount(_ random: inout FuzzRandom) -> Int {
    random.percent(50) ? random.skewed(1...200) : random.skewed(200...3000)
  }

  init(seed: UInt64, worker: Int, connection: Int, generator: RequestGenerator, pool: FuzzLinePool) {
    var random = FuzzRandom(seed: seed, stream: UInt64(worker), UInt64(connection))
    label = "w\(worker)c\(connection)"
    behaviour = random.weighted([(45, .reader), (17, .halfCloser), (14, .silent), (20, .resetter), (4, .flood)])
    var keys = OrderKeys(connection: label)
    var lines: [[UInt8]] = []
    if random.percent(3) { lines.append(random.pick(FuzzVocabulary.crossProtocol)) }
    if random.percent(40) {
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
    var candidates = lines.map { FuzzLine($0, maxLine: generator.maxLine) }
    for _ in 0..<Self.lineCount(&random) {
      if behaviour == .silent && random.percent(50) {
        candidates.append(FuzzLine(Array(random.pick(Self.heavy).utf8), maxLine: generator.maxLine))
      } else if random.percent(85) {
        candidates.append(pool.pick(&random))
      } else {
        // Fresh lines carry this connection's own order keys. Like the pool's, they do not end the
        // conversation, which the ending line below does at a rate of its own.
        var line: FuzzLine
        repeat {
          line = FuzzLine(generator.line(&random, keys: &keys, passwords: false), maxLine: generator.maxLine)
        } while line.fate != .answered || line.isPasswordAttempt
        candidates.append(line)
      }
    }
    // Password lines, each an Argon2id hash for the server: one now and then, and on a few
    // connections enough of them for the fifth failure to close it.
    let passwordLines = random.percent(3) ? 4 + random.below(4) : random.percent(10) ? 1 : 0
    for _ in 0..<passwordLines {
      let line = FuzzLine(generator.passwordLine(&random, keys: &keys), maxLine: generator.maxLine)
      candidates.insert(line, at: random.below(candidates.count + 1))
    }
    if random.percent(30) { candidates.append(FuzzLine(generator.endingLine(&random), maxLine: generator.maxLine)) }
    expectation = FuzzExpectation(lines: candidates, sentinel: "fuzz-end-\(label)")
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
