import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// An open descriptor holding an exclusive `flock(2)` on one file for as long as it lives.
///
/// flock locks belong to the open file, not to the path: a lock taken on the database file
/// holds however the file is reached (through a symlinked directory, say) and is dropped only
/// when this descriptor closes. SQLite's own locks are POSIX `fcntl` locks, which closing *any*
/// descriptor of the file in this process drops; so this descriptor is opened before SQLite
/// opens the file, closed only after every connection has closed (connections keep it alive),
/// and no other descriptor of the file is opened and closed in between.
public final class FileLock: @unchecked Sendable {
  public let path: String
  let descriptor: Int32

  /// What went wrong opening the file: the call's `errno`.
  public struct OpenError: Error, Sendable {
    public var code: Int32
  }

  /// Opens `path`, creating it `0600` when `create` and it is missing.
  init(path: String, create: Bool, writable: Bool = false) throws(OpenError) {
    let access = writable || create ? O_RDWR : O_RDONLY
    let descriptor = Glibc.open(path, access | O_CLOEXEC | (create ? O_CREAT : 0), 0o600)
    guard descriptor >= 0 else { throw OpenError(code: errno) }
    self.path = path
    self.descriptor = descriptor
  }

  /// Takes the lock without waiting; false when another open file holds it.
  func tryLock() -> Bool {
    while true {
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
      if errno != EINTR { return false }
    }
  }

  /// The size of the file as this descriptor sees it.
  var size: Int {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return 0 }
    return Int(info.st_size)
  }

  /// Forces the file's data to the disk.
  func sync() throws(OpenError) {
    guard fsync(descriptor) == 0 else { throw OpenError(code: errno) }
  }

  /// Empties the file and gives it to its owner alone.
  func reset() throws(OpenError) {
    guard ftruncate(descriptor, 0) == 0 else { throw OpenError(code: errno) }
    _ = fchmod(descriptor, 0o600)
  }

  /// Replaces the file's text: the lock file records the pid that holds it.
  func write(_ text: String) {
    guard ftruncate(descriptor, 0) == 0 else { return }
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
  }

  /// The file's text, up to 64 bytes.
  func read() -> String {
    var buffer = [UInt8](repeating: 0, count: 64)
    let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
  }

  /// The process holding an flock on this file, from /proc/locks (Linux), when another holds it.
  var holder: pid_t? { Self.flockHolders(of: descriptor).first { $0 != getpid() } }

  /// Every process holding an flock on the file `descriptor` is open on, this one included,
  /// from /proc/locks (Linux; empty elsewhere).
  package static func flockHolders(of descriptor: Int32) -> [pid_t] {
    var info = stat()
    guard fstat(descriptor, &info) == 0,
      let text = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
    else { return [] }
    // "1: FLOCK  ADVISORY  WRITE 4242 fd:01:123456 0 EOF"; waiting locks have "->" after the number.
    return text.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 6, fields[1] == "FLOCK", let inode = fields[5].split(separator: ":").last,
        UInt64(inode) == UInt64(info.st_ino)
      else { return nil }
      return pid_t(fields[4])
    }
  }

  /// Unlocks before closing: the lock belongs to the open file, which a child spawned by
  /// another thread at this moment shares until its exec closes the copy (`O_CLOEXEC`), so a
  /// close alone left the shop locked against this process's next open for that while.
  deinit {
    _ = flock(descriptor, LOCK_UN)
    Glibc.close(descriptor)
  }
}
