import CSodium

/// What making one Argon2id hash costs: the memory it fills and the passes it makes over it
/// (`--password-memory`, `--password-passes`). A hash records its own cost, so a hash made with
/// one cost verifies under any other, and checking a password costs what making its hash did.
///
/// The default is libsodium's interactive limits, the least it advises for logins: 64 MiB and 2
/// passes, about a tenth of a second. Less makes a stolen hash cheaper to guess in proportion, so
/// it is for machines that cannot spare the memory and for test servers (which make thousands of
/// logins), and the server says so in its log when it starts (as PostgreSQL 16 lets an operator
/// lower `scram_iterations`).
public struct PasswordCost: Sendable, Equatable, Hashable {
  /// Mebibytes each hash fills.
  public var memoryMiB: Int
  /// Passes over that memory.
  public var passes: Int

  /// What the options accept: from 1 MiB and one pass, Argon2id's least that is still a
  /// memory-hard hash, to 4 GiB and 32 passes, beyond which a login takes seconds.
  public static let memoryRange = 1...4096
  public static let passesRange = 1...32

  public init(memoryMiB: Int, passes: Int) {
    self.memoryMiB = memoryMiB
    self.passes = passes
  }

  /// libsodium's interactive limits: 64 MiB, 2 passes.
  public static let interactive = PasswordCost(
    memoryMiB: Int(crypto_pwhash_memlimit_interactive()) / (1024 * 1024),
    passes: Int(crypto_pwhash_opslimit_interactive()))

  /// The least the options accept, for test servers: a hash in about a millisecond.
  public static let least = PasswordCost(memoryMiB: memoryRange.lowerBound, passes: passesRange.lowerBound)

  /// Whether this is below libsodium's interactive limits, which the log warns of.
  public var isBelowInteractive: Bool {
    memoryMiB < Self.interactive.memoryMiB || passes < Self.interactive.passes
  }

  var memoryBytes: Int { memoryMiB * 1024 * 1024 }
  var operations: UInt64 { UInt64(passes) }

  /// As the log and `--help` say it: `64MiB,2` (memory, passes).
  public var description: String { "\(memoryMiB)MiB,\(passes)" }
}
