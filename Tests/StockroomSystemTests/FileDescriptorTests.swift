import CStockroomSystem
import StockroomSystem
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Checked through a pipe, whose reader sees the end only once every writer is closed: other
/// tests in this process open and close descriptors meanwhile, so a number alone proves nothing.
@Suite("A file descriptor closes exactly once", .timeLimit(.minutes(30)))
struct FileDescriptorTests {
  /// A pipe: its read end, and its write end owned by a `FileDescriptor`.
  private static func pipeEnds() throws -> (reader: Int32, writer: FileDescriptor) {
    var ends: [Int32] = [-1, -1]
    // Close-on-exec: a program another test spawns meanwhile would keep the writer open for good.
    try #require(sr_pipe_cloexec(&ends) == 0)
    return (ends[0], FileDescriptor(ends[1]))
  }

  /// Whether the pipe's writer is closed: a read sees the end rather than waiting. A child
  /// spawned by another test holds a copy until its exec, so a closed writer is waited for (at
  /// most 30 s); an open one is looked at once.
  private static func writerClosed(_ reader: Int32, waiting: Bool = true) -> Bool {
    var entry = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
    guard poll(&entry, 1, waiting ? 30_000 : 0) == 1 else { return false }
    var byte: UInt8 = 0
    return read(reader, &byte, 1) == 0
  }

  @Test("it closes when its last holder lets it go")
  func closesWhenDropped() throws {
    var writer: FileDescriptor?
    let reader: Int32
    (reader, writer) = try Self.pipeEnds()
    defer { close(reader) }
    #expect(!Self.writerClosed(reader, waiting: false))
    writer = nil
    #expect(Self.writerClosed(reader))
  }

  @Test("closed by hand it is closed at once, says so, and a second close does nothing")
  func closedByHand() throws {
    let (reader, writer) = try Self.pipeEnds()
    defer { close(reader) }
    writer.close()
    #expect(writer.rawValue == -1)
    #expect(Self.writerClosed(reader))
    writer.close()
    #expect(writer.rawValue == -1)
  }
}
