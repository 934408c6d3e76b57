import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a child's pipe on a thread of its own with blocking reads, until the pipe ends, and
/// keeps what arrived. Not `FileHandle.readabilityHandler`: its Dispatch source outlived the
/// handle's descriptor when a `DaemonProcess` went, and once the number was reused for another
/// process's pipe, Dispatch's event loop crashed the whole test process (seen in a crash test
/// run: `_dispatch_event_loop_drain`, a bad pointer). The thread holds the handle, so its
/// descriptor stays open, and its number taken, until the thread has read the end.
final class PipeReader: @unchecked Sendable {
  private let lock = NSLock()
  private var bytes: [UInt8] = []

  /// Starts reading `handle` at once.
  init(_ handle: FileHandle) {
    let thread = Thread { [self] in
      var buffer = [UInt8](repeating: 0, count: 16 * 1024)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        lock.lock()
        bytes += buffer[0..<count]
        lock.unlock()
      }
      // The handle is released only here, once its end has been read.
      withExtendedLifetime(handle) {}
    }
    thread.name = "pipe-reader"
    thread.start()
  }

  /// Everything read so far, as UTF-8 (a character cut between two reads is whole here).
  var text: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: bytes, as: UTF8.self)
  }
}
