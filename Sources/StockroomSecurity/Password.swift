import CSodium

/// A password, held only as long as it is needed.
///
/// Its bytes live in memory this object owns and overwrites with zeros when it goes away
/// (`sodium_memzero`, which the compiler may not optimize out), rather than in a `String` or an
/// array that copies itself and is freed without being cleared. Printing it shows `<password>`,
/// so a password passed to a log line or an error message by mistake does not leak.
///
/// It never changes after it is made, which is what makes it safe to hand to another thread
/// (a job on the server's credential pool).
public final class Password: @unchecked Sendable, CustomStringConvertible, CustomDebugStringConvertible {
  /// Shorter passwords fall to a search of every candidate within hours, even against Argon2id.
  public static let minimumBytes = 8
  /// Long enough for any passphrase a person types or a manager generates; the bound keeps a
  /// client from making the server read and hash megabytes per attempt.
  public static let maximumBytes = 1024

  private let storage: UnsafeMutableRawBufferPointer

  /// Copies `bytes` straight into the wiped memory, through no array of its own; the caller
  /// should clear its copy when it can.
  public init(bytes: some Collection<UInt8>) {
    count = bytes.count
    storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 1)
    storage.copyBytes(from: bytes)
  }

  /// Copies the bytes in `buffer`, which the caller can then clear: this way no array of the
  /// password is ever left behind in freed memory.
  public init(copying buffer: UnsafeRawBufferPointer) {
    count = buffer.count
    storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 1)
    if count > 0 { storage.copyMemory(from: buffer) }
  }

  /// The password's UTF-8 bytes.
  public convenience init(_ string: String) {
    self.init(bytes: string.utf8)
  }

  deinit {
    sodium_memzero(storage.baseAddress!, storage.count)
    storage.deallocate()
  }

  /// The password's length in bytes, which the rules count.
  public let count: Int

  /// Lends the bytes for as long as `body` runs; it must not keep or copy them.
  public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
  }

  /// Throws unless the password fits the rules: at least `minimumBytes` and at most
  /// `maximumBytes` bytes. Characters are not counted: the hash sees bytes.
  public func check() throws(PasswordError) {
    guard count >= Self.minimumBytes else { throw .tooShort(minimum: Self.minimumBytes) }
    guard count <= Self.maximumBytes else { throw .tooLong(maximum: Self.maximumBytes) }
  }

  /// Whether `other` holds the same bytes, in time that depends only on the length: for the
  /// second typing of a new password, or any comparison an attacker could time.
  public func matches(_ other: Password) -> Bool {
    guard count == other.count else { return false }
    guard count > 0 else { return true }
    return sodium_memcmp(storage.baseAddress, other.storage.baseAddress, count) == 0
  }

  public var description: String { "<password>" }

  public var debugDescription: String { "<password>" }
}
