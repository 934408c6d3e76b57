import StockroomStorage

/// The configuration while options are being applied: `--fsync` and `--fsync-interval` make one
/// policy between them, whichever comes first and from wherever (file or command line).
public struct OptionSettings: Sendable {
  /// `--fsync`'s word, waiting for `--fsync-interval` to make a policy of it.
  enum FsyncMode: String, CaseIterable {
    case always, batch, off
  }

  public var configuration = ServerConfiguration()
  var fsyncMode = FsyncMode.always
  var fsyncInterval = 1000

  public init() {}

  /// The configuration the options add up to, once all are read from wherever they came:
  /// where options only make sense together (a policy from two of them, one that needs
  /// another), they are combined and checked here.
  func finish() throws(ServerConfiguration.UsageError) -> ServerConfiguration {
    var configuration = configuration
    switch fsyncMode {
    case .batch: configuration.fsync = .batch(milliseconds: fsyncInterval)
    case .off: configuration.fsync = .off
    case .always: configuration.fsync = .always
    }
    return configuration
  }

  static func integer(_ text: String, _ range: ClosedRange<Int>) throws(OptionProblem) -> Int {
    guard let number = Int(text), range.contains(number) else {
      throw OptionProblem("takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
    }
    return number
  }

  /// The case of `Choice` that `text` names, or a problem listing them all.
  static func oneOf<Choice: RawRepresentable & CaseIterable>(
    _ text: String, _ type: Choice.Type = Choice.self
  ) throws(OptionProblem) -> Choice where Choice.RawValue == String {
    guard let choice = Choice(rawValue: text) else {
      let names = Choice.allCases.map(\.rawValue)
      let list = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
      throw OptionProblem("takes \(list), not '\(text)'")
    }
    return choice
  }
}
