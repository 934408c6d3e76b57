import StockroomStorage

/// The configuration while options are being applied: `--fsync` and `--fsync-interval` make one
/// policy between them, whichever comes first and from wherever (file or command line).
public struct OptionSettings: Sendable {
  public var configuration = ServerConfiguration()
  var fsyncMode = "always"
  var fsyncInterval = 1000

  public init() {}

  /// The configuration the options add up to.
  var finished: ServerConfiguration {
    var configuration = configuration
    switch fsyncMode {
    case "batch": configuration.fsync = .batch(milliseconds: fsyncInterval)
    case "off": configuration.fsync = .off
    default: configuration.fsync = .always
    }
    return configuration
  }

  static func integer(_ text: String, _ range: ClosedRange<Int>) throws(OptionProblem) -> Int {
    guard let number = Int(text), range.contains(number) else {
      throw OptionProblem("takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
    }
    return number
  }

  static func oneOf(_ text: String, _ choices: [String]) throws(OptionProblem) -> String {
    guard choices.contains(text) else {
      let list = choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "")
      throw OptionProblem("takes \(list), not '\(text)'")
    }
    return text
  }
}
