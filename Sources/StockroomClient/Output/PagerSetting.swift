/// Whether long replies go through a pager, and which one.
public enum PagerSetting: Sendable, Equatable {
  case off
  /// `$PAGER`, or `less -FRX` when it is unset.
  case automatic
  /// A command line from the config file, run by `/bin/sh -c`.
  case command(String)

  /// The shell command to run, or nil when paging is off.
  public func command(environment: [String: String]) -> String? {
    switch self {
    case .off: return nil
    case .command(let line): return line
    case .automatic:
      if let pager = environment["PAGER"], !pager.trimmingSpaces().isEmpty { return pager }
      return "less -FRX"
    }
  }
}
