import StockroomTestSupport

/// The tests' `SplitMix64`, with the picks the fuzzer makes: the same numbers on every machine
/// and run, so a printed seed replays exactly the input a failing fuzz run sent.
struct FuzzRandom: RandomNumberGenerator {
  private var numbers: SplitMix64

  init(seed: UInt64) { numbers = SplitMix64(seed: seed) }

  /// A generator of its own for one part of a run (a worker's n-th connection): the streams of a
  /// seed do not overlap in practice, and none depends on how far another one has got.
  init(seed: UInt64, stream: UInt64...) {
    var mixer = FuzzRandom(seed: seed)
    var mixed = mixer.next()
    for part in stream {
      mixer = FuzzRandom(seed: mixed ^ (part &* 0xD6E8_FEB8_6659_FD93))
      mixed = mixer.next()
    }
    numbers = SplitMix64(seed: mixed)
  }

  mutating func next() -> UInt64 { numbers.next() }

  /// True with probability `percent` / 100.
  mutating func percent(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &self) < percent }

  mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<max(1, bound), using: &self) }

  mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

  /// Small numbers mostly, now and then a large one: lengths and counts that are usually cheap.
  mutating func skewed(_ range: ClosedRange<Int>) -> Int {
    let span = range.upperBound - range.lowerBound
    let scale = pick([span / 64, span / 8, span])
    return range.lowerBound + Int.random(in: 0...max(0, scale), using: &self)
  }

  /// One choice by weight: `[(3, a), (1, b)]` gives `a` three times as often as `b`. Every
  /// choice is built before one is picked, so costly ones go through a switch on a picked index.
  mutating func weighted<T>(_ choices: [(Int, T)]) -> T {
    var roll = below(choices.reduce(0) { $0 + $1.0 })
    for (weight, choice) in choices {
      if roll < weight { return choice }
      roll -= weight
    }
    return choices[choices.count - 1].1
  }
}
