import StockroomTestSupport
import Testing

@testable import stockroom_bench

/// The histogram every latency figure of the bench is read from, against the plain answer: sort
/// the samples and take the one at rank ⌈fraction × count⌉.
@Suite("the latency histogram", .timeLimit(.minutes(30)))
struct LatencyHistogramTests {
  static let fractions = [0, 0.001, 0.25, 0.5, 0.9, 0.99, 0.999, 1]

  /// The sample at `fraction`, ranked as the histogram ranks (at least the first).
  static func bruteForce(_ samples: [UInt64], _ fraction: Double) -> UInt64 {
    let sorted = samples.sorted()
    let rank = max(1, Int((fraction * Double(sorted.count)).rounded(.up)))
    return sorted[rank - 1]
  }

  static func histogram(_ samples: [UInt64]) -> LatencyHistogram {
    var histogram = LatencyHistogram()
    for sample in samples { histogram.record(sample) }
    return histogram
  }

  /// A fixed sequence (SplitMix64), so that a failure repeats.
  static func samples(count: Int, seed: UInt64) -> [UInt64] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in
      let mixed = random.next()
      // Spread over every scale from 1 ns to about 17 s: a few bits of a random length.
      return (mixed >> 30) >> (mixed % 34)
    }
  }

  @Test("nothing recorded: every percentile is 0")
  func empty() {
    let histogram = LatencyHistogram()
    #expect(histogram.total == 0)
    for fraction in Self.fractions { #expect(histogram.percentile(fraction) == 0) }
  }

  @Test("one sample is every percentile")
  func oneSample() {
    for sample: UInt64 in [0, 1, 127, 128, 50_000, 3_000_000_000] {
      let histogram = Self.histogram([sample])
      #expect(histogram.total == 1)
      for fraction in Self.fractions {
        let read = histogram.percentile(fraction)
        // Exact below 128 ns; the middle of a bucket 1/64 of a doubling wide above.
        #expect(read >= sample - sample / 128 && read <= sample + sample / 128, "\(sample) at \(fraction): \(read)")
      }
    }
  }

  @Test("below 128 ns every sample is exact: 1 to 100 gives 50, 99 and 100")
  func exactSmall() {
    let histogram = Self.histogram(Array(1...100).reversed())
    #expect(histogram.total == 100)
    #expect(histogram.percentile(0.5) == 50)
    #expect(histogram.percentile(0.99) == 99)
    #expect(histogram.percentile(1) == 100)
    #expect(histogram.percentile(0) == 1)
    #expect(histogram.percentile(0.001) == 1)
  }

  @Test("every percentile is within 1/128 of the brute-force one, on samples of every scale")
  func againstBruteForce() {
    for seed: UInt64 in [1, 2, 3] {
      let samples = Self.samples(count: 5_000, seed: seed)
      let histogram = Self.histogram(samples)
      #expect(histogram.total == samples.count)
      for fraction in Self.fractions {
        let exact = Self.bruteForce(samples, fraction)
        let read = histogram.percentile(fraction)
        let error = read > exact ? read - exact : exact - read
        #expect(error <= exact / 128, "seed \(seed), fraction \(fraction): \(read) against \(exact)")
      }
    }
  }

  @Test("merging two histograms is recording both sets of samples in one")
  func merge() {
    let (first, second) = (Self.samples(count: 700, seed: 7), Self.samples(count: 300, seed: 8))
    var merged = Self.histogram(first)
    merged.merge(Self.histogram(second))
    let together = Self.histogram(first + second)
    #expect(merged.total == 1_000)
    for fraction in Self.fractions { #expect(merged.percentile(fraction) == together.percentile(fraction)) }
  }

  @Test("values beyond the top bucket (about 39 hours) are counted there, not lost and not a trap")
  func beyondTheTop() {
    let top: UInt64 = 1 << 47
    let histogram = Self.histogram([1_000, top, top * 4, UInt64.max])
    #expect(histogram.total == 4)
    #expect(histogram.percentile(0.25) >= 1_000 - 1_000 / 128 && histogram.percentile(0.25) <= 1_000 + 1_000 / 128)
    // All three land in the last bucket, whose middle lies just under 2^47 ns.
    let last = histogram.percentile(0.5)
    #expect(last >= top - top / 128 && last < top)
    #expect(histogram.percentile(0.75) == last)
    #expect(histogram.percentile(1) == last)
  }
}
