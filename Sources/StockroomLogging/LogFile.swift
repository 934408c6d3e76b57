import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The file `--log-file` names, opened for appending. SIGHUP reopens it under the same
/// descriptor number, so logrotate can move the old file away and every thread's logger goes on
/// writing, to the new file, without a lock on the way.
package enum LogFile {
  /// Owner read and write, group read: a log names peers and accounts, not passwords.
  package static let mode: mode_t = 0o640

  package static func open(_ path: String) throws(Errno) -> Int32 {
    let fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, mode)
    guard fd >= 0 else { throw Errno.current }
    return fd
  }

  /// Opens `path` again and puts it in place of `fd` in one step (dup2): a line written at that
  /// moment lands whole in the old file or the new one.
  package static func reopen(_ path: String, onto fd: Int32) throws(Errno) {
    let fresh = try open(path)
    defer { close(fresh) }
    guard dup2(fresh, fd) >= 0 else { throw Errno.current }
    // dup2 clears close-on-exec on the copy; a child must not inherit the log.
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
  }
}
