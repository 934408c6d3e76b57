import Foundation

/// How much of one shared resource each source has used lately and holds now: the one account
/// that every fair pool and cap ranks its sources by (docs/security.md, "Fair shares").
///
/// Use decays by half every `halfLife`, so a source that stops is forgotten within minutes, and a
/// burst counts for as long as it could still be crowding others out. `load` is what a source
/// stands for when the resource is contended: what it used lately plus what it holds now. The
/// source with the highest load is the one refused or cut, never a newcomer with less; a source
/// that has used nothing and holds nothing has the lowest load there is.
///
/// A source can also be vouched for (a password check it passed): `vouched` tells whether that
/// happened within `trustWindow`, so a pool can let a source it knows go ahead of sources it
/// knows nothing of.
///
/// The table is bounded: past `capacity` sources, those that hold nothing and have used least are
/// forgotten first. A plain value: its owner keeps it under a lock, with no I/O.
package struct UsageLedger<Source: Hashable & Sendable>: Sendable {
  private struct Entry {
    var used: Double = 0
    /// When `used` was last brought up to date (nanoseconds of the owner's clock).
    var stamp: UInt64 = 0
    var held = 0
    var vouchedAt: UInt64? = nil
  }

  package let halfLife: UInt64
  package let trustWindow: UInt64
  package let capacity: Int
  private var entries: [Source: Entry] = [:]

  package init(
    halfLife: Duration = .seconds(60), trustWindow: Duration = .seconds(15 * 60), capacity: Int = 10_000
  ) {
    self.halfLife = Self.nanoseconds(halfLife)
    self.trustWindow = Self.nanoseconds(trustWindow)
    self.capacity = capacity
  }

  /// What `source` used lately, decayed to `now`.
  package func used(_ source: Source, now: UInt64) -> Double {
    guard let entry = entries[source] else { return 0 }
    return decayed(entry, to: now)
  }

  /// Places or jobs `source` holds now.
  package func held(_ source: Source) -> Int { entries[source]?.held ?? 0 }

  /// What `source` stands for when contended: its recent use plus what it holds.
  package func load(_ source: Source, now: UInt64) -> Double {
    guard let entry = entries[source] else { return 0 }
    return decayed(entry, to: now) + Double(entry.held)
  }

  /// Whether `source` passed a check (`vouch`) within `trustWindow` of `now`.
  package func vouched(_ source: Source, now: UInt64) -> Bool {
    guard let at = entries[source]?.vouchedAt else { return false }
    return now &- at < trustWindow
  }

  /// Counts `cost` of work done for `source` at `now`.
  package mutating func charge(_ source: Source, _ cost: Double = 1, now: UInt64) {
    update(source, now: now) { $0.used += cost }
  }

  /// `source` takes (`change` > 0) or gives back (< 0) places.
  package mutating func hold(_ source: Source, _ change: Int = 1, now: UInt64) {
    update(source, now: now) { $0.held = max(0, $0.held + change) }
  }

  /// `source` passed a check at `now`.
  package mutating func vouch(_ source: Source, now: UInt64) {
    update(source, now: now) { $0.vouchedAt = now }
  }

  private mutating func update(_ source: Source, now: UInt64, _ change: (inout Entry) -> Void) {
    if entries[source] == nil && entries.count >= capacity { forget(now: now) }
    var entry = entries[source] ?? Entry(stamp: now)
    entry.used = decayed(entry, to: now)
    entry.stamp = max(entry.stamp, now)
    change(&entry)
    entries[source] = entry
  }

  /// Makes room for a quarter of `capacity`: first sources that hold nothing, have used next
  /// to nothing and are trusted by no one; then those that hold nothing and have used least.
  private mutating func forget(now: UInt64) {
    let idle = entries.filter { $0.value.held == 0 }
      .map { (source: $0.key, used: decayed($0.value, to: now), trusted: vouched($0.key, now: now)) }
      .sorted { ($0.trusted ? 1 : 0, $0.used) < ($1.trusted ? 1 : 0, $1.used) }
    for candidate in idle.prefix(max(1, capacity / 4)) { entries[candidate.source] = nil }
  }

  private func decayed(_ entry: Entry, to now: UInt64) -> Double {
    guard now > entry.stamp, entry.used > 0 else { return entry.used }
    let halves = Double(now - entry.stamp) / Double(halfLife)
    return halves > 64 ? 0 : entry.used * exp2(-halves)
  }

  private static func nanoseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
  }
}
