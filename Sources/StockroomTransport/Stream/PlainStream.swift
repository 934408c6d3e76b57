import StockroomEngine
import StockroomSystem

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The socket itself, plain text: one system call per read or write, nothing held in between.
final class PlainStream: ConnectionStream {
  private let fd: Int32

  init(fd: Int32) {
    self.fd = fd
  }

  var needsHandshake: Bool { false }
  var hasBufferedInput: Bool { false }
  var holdsIdleBuffers: Bool { false }

  func releaseIdleBuffers() -> Bool { false }

  func handshake() -> StreamHandshake { .done("plain text") }

  func read(into buffer: UnsafeMutableRawBufferPointer) -> StreamRead {
    do {
      let count = try Syscall.read(fd, into: buffer)
      return count == 0 ? .ended : .bytes(count)
    } catch {
      return error.isWouldBlock ? .wouldBlock : .failed(.readFailed(error))
    }
  }

  func write(_ bytes: UnsafeRawBufferPointer) -> StreamWrite {
    do {
      return .bytes(try Syscall.write(fd, bytes))
    } catch {
      return error.isWouldBlock ? .blocked(.write) : .failed(.writeFailed(error))
    }
  }

  func shutdownOutput() {
    Glibc.shutdown(fd, Int32(SHUT_WR))
  }
}
