import Foundation
import StockroomFixtures
import Testing

@testable import StockroomStorage

#if canImport(Glibc)
  import Glibc
#endif

/// A lock belongs to the open file, and a process spawned while it is open shares the open file
/// until its exec closes the copy; the tests spawn from many threads at once, so a lock closed
/// in that window stayed held against the same process's next open (CI saw it once).
@Suite("A let-go file lock is free while a child still shares its descriptor", .timeLimit(.minutes(30)))
struct FileLockReleaseTests {
  @Test("the next open locks the file although a child still has the old descriptor")
  func unlockReachesSharedDescriptor() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("stockroom-lock-\(UUID())").path
    defer { unlink(path) }
    var held: FileLock? = try FileLock(path: path, create: true)
    #expect(held?.tryLock() == true)
    let child = try DescriptorSharingChild(sharing: try #require(held?.descriptor))
    defer { child.stop() }
    #expect(FileLock.flockHolders(of: try #require(held?.descriptor)) == [getpid()])
    held = nil
    let again = try FileLock(path: path, create: false)
    #expect(again.tryLock())
  }
}
