import Foundation

/// How server timestamps (UTC, ISO 8601) are shown to people: in the time zone of `TZ` and the
/// language of `LC_ALL`, `LC_TIME` or `LANG`, with the time of day, and recent ones as
/// `3 min ago`.
public struct DateStyle: Sendable {
  /// The ICU locale, as `de_DE`; `en_US` for C and POSIX.
  public var localeIdentifier: String
  public var timeZone: TimeZone
  /// The clock recent times are measured against; tests set it.
  public var now: @Sendable () -> Date = { Date() }

  /// Times closer to now than this are shown as how long ago they were.
  static let recent: TimeInterval = 60 * 60

  public init(localeIdentifier: String, timeZone: TimeZone) {
    self.localeIdentifier = localeIdentifier
    self.timeZone = timeZone
  }

  public static let english = DateStyle(localeIdentifier: "en_US", timeZone: TimeZone(identifier: "UTC")!)

  /// The language of LC_ALL, else LC_TIME, else LANG, as POSIX ranks them, and the zone of TZ
  /// (else the system's).
  public static func from(environment: [String: String]) -> DateStyle {
    var identifier = "en_US"
    for key in ["LC_ALL", "LC_TIME", "LANG"] {
      if let value = environment[key], !value.isEmpty {
        identifier = localeIdentifier(posix: value)
        break
      }
    }
    var zone = TimeZone.current
    if var name = environment["TZ"], !name.isEmpty {
      if name.hasPrefix(":") { name.removeFirst() }
      if let named = TimeZone(identifier: name) {
        zone = named
      } else if let file = try? FileManager.default.destinationOfSymbolicLink(atPath: name),
        let range = file.range(of: "zoneinfo/"), let named = TimeZone(identifier: String(file[range.upperBound...]))
      {
        zone = named
      }
    }
    return DateStyle(localeIdentifier: identifier, timeZone: zone)
  }

  /// `de_DE.UTF-8@euro` is ICU's `de_DE`; C and POSIX name no language, so English.
  static func localeIdentifier(posix value: String) -> String {
    let name = value.split(separator: ".").first.map(String.init) ?? value
    let bare = name.split(separator: "@").first.map(String.init) ?? name
    if bare.isEmpty || bare == "C" || bare == "POSIX" { return "en_US" }
    return bare
  }

  private var language: String {
    String(localeIdentifier.prefix { $0 != "_" && $0 != "-" }).lowercased()
  }

  /// The instant of `2026-11-29T13:33:50Z`; nil for anything else.
  static func instant(iso text: String) -> Date? {
    guard text.count >= 20, text.hasSuffix("Z"), text.dropFirst(10).first == "T" else { return nil }
    return ISO8601DateFormatter().date(from: text)
  }

  /// A calendar date such as an exhibition's `1900-04-14`, which has no time or zone.
  static func calendarDay(_ text: String) -> DateComponents? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard text.count == 10, parts.count == 3, parts[0].count == 4, let year = Int(parts[0]),
      let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    return DateComponents(year: year, month: month, day: day)
  }

  private func formatter(_ template: String, zone: TimeZone) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: localeIdentifier)
    formatter.timeZone = zone
    formatter.setLocalizedDateFormatFromTemplate(template)
    return formatter
  }

  /// `Nov 29, 2026, 10:33 PM`, `29. Nov. 2026, 22:33`, `2026년 11월 29일 오후 10:33`; a calendar
  /// date alone without a time. Nil when the text is neither, so the caller shows it unchanged.
  public func format(iso text: String) -> String? {
    if let date = Self.instant(iso: text) {
      return formatter("yMMMdjmm", zone: timeZone).string(from: date)
    }
    if let day = Self.calendarDay(text) {
      var calendar = Calendar(identifier: .gregorian)
      let utc = TimeZone(identifier: "UTC")!
      calendar.timeZone = utc
      guard let date = calendar.date(from: day) else { return nil }
      return formatter("yMMMd", zone: utc).string(from: date)
    }
    return nil
  }

  /// For a table: `3 min ago` when recent and the language has words for it, else `format`.
  public func short(iso text: String) -> String? {
    if let date = Self.instant(iso: text), let ago = relative(date) { return ago }
    return format(iso: text)
  }

  /// For a card: the date and time, and how long ago when recent.
  public func full(iso text: String) -> String? {
    guard let absolute = format(iso: text) else { return nil }
    guard let date = Self.instant(iso: text), let ago = relative(date) else { return absolute }
    return "\(absolute) (\(ago))"
  }

  /// Foundation on Linux has no RelativeDateTimeFormatter, so the few words needed are here;
  /// other languages get the date and time.
  func relative(_ date: Date) -> String? {
    let seconds = now().timeIntervalSince(date)
    // A clock a little ahead of the server's still reads as now.
    guard seconds > -60, seconds < Self.recent else { return nil }
    let minutes = max(0, Int(seconds / 60))
    switch language {
    case "en": return minutes == 0 ? "just now" : "\(minutes) min ago"
    case "ko": return minutes == 0 ? "방금" : "\(minutes)분 전"
    case "de": return minutes == 0 ? "gerade eben" : "vor \(minutes) Min."
    case "ja": return minutes == 0 ? "たった今" : "\(minutes)分前"
    case "fr": return minutes == 0 ? "à l’instant" : "il y a \(minutes) min"
    default: return nil
    }
  }
}
