/// How server timestamps are shown to people: in the user's language, date only.
public enum DateStyle: Sendable, Equatable {
  case korean
  case english

  /// The language of LC_ALL, else LC_TIME, else LANG, as POSIX ranks them.
  public static func from(environment: [String: String]) -> DateStyle {
    for key in ["LC_ALL", "LC_TIME", "LANG"] {
      if let value = environment[key], !value.isEmpty {
        return value.lowercased().hasPrefix("ko") ? .korean : .english
      }
    }
    return .english
  }

  private static let monthNames = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// `2026년 11월 29일` or `Nov 29, 2026` for an ISO-8601 UTC timestamp; nil when the text is
  /// not one, so the caller shows it unchanged.
  public func format(iso text: String) -> String? {
    // Written by hand: Foundation's month names depend on which locales the machine has.
    let parts = text.prefix(10).split(separator: "-")
    guard text.count >= 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]),
      let day = Int(parts[2]), (1...12).contains(month), (1...31).contains(day),
      text.count == 10 || text.dropFirst(10).first == "T"
    else { return nil }
    switch self {
    case .korean: return "\(year)년 \(month)월 \(day)일"
    case .english: return "\(Self.monthNames[month - 1]) \(day), \(year)"
    }
  }
}
