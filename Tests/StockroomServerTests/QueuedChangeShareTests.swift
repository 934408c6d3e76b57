import StockroomEngine
import StockroomPersistence
import StockroomServer
import Testing

/// The changes each connection may queue for a shared store's writer, times the clients the
/// server takes, fit in the writer's queue: no address, however many connections it holds, can
/// fill it and have a newcomer's change refused.
@Suite(.timeLimit(.minutes(30)))
struct QueuedChangeShareTests {
  @Test(
    "every client queuing its share of changes at once does not fill the writer's queue",
    arguments: [1, 1024, 5000, 20000])
  func sharesFitTheQueue(maxClients: Int) {
    var configuration = ServerConfiguration()
    configuration.maxClients = maxClients
    let limits = ConnectionLimits(configuration)
    #expect(limits.queuedChanges >= 1)
    // At least one a connection, so with more clients than places the old bound (one) holds.
    #expect(limits.queuedChanges * maxClients <= max(SharedWriter.queueCapacity, maxClients))
  }
}
