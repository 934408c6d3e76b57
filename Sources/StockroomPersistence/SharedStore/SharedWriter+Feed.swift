import Foundation
import StockroomDomain
import StockroomEngine
import StockroomLogging
import StockroomStorage
import StockroomSystem
import Synchronization

/// The feed thread (`sr-feed`): listens for other nodes' announcements on a connection of its
/// own and wakes the writer.
extension SharedWriter {
  func runFeed() {
    while !queue.withLock({ $0.stopping }) {
      do {
        if !feed.isListening { try feed.listen() }
        if let newest = try feed.newest(waitingUpTo: 250) {
          queue.withLock { $0.announced = max($0.announced, newest) }
          wakeUp.signal()
        }
      } catch {
        queue.withLock { $0.lost = "\(error)" }
        wakeUp.signal()
        // Try again after a pause, not in a spin, while the database is away.
        Semaphore().wait(timeout: .milliseconds(250))
      }
    }
  }
}
