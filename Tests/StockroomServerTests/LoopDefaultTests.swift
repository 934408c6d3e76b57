import Testing

@testable import StockroomServer

@Suite("the default number of event loops", .timeLimit(.minutes(30)))
struct LoopDefaultTests {
  @Test("one loop on two cores or fewer, in memory or on disk (measured in docs/performance.md)")
  func smallMachines() {
    for cores in 1...2 {
      #expect(ServerConfiguration.defaultLoops(cores: cores, onDisk: false) == 1)
      #expect(ServerConfiguration.defaultLoops(cores: cores, onDisk: true) == 1)
    }
  }

  @Test("above two cores, one per core, less the committer's when on disk")
  func largerMachines() {
    #expect(ServerConfiguration.defaultLoops(cores: 4, onDisk: false) == 4)
    #expect(ServerConfiguration.defaultLoops(cores: 4, onDisk: true) == 3)
    #expect(ServerConfiguration.defaultLoops(cores: 3, onDisk: true) == 2)
  }

  @Test("--loops wins over the default")
  func explicit() {
    var configuration = ServerConfiguration()
    configuration.loops = 3
    #expect(configuration.resolvedLoops == 3)
  }
}
