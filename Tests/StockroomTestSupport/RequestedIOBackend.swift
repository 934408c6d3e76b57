import Foundation

/// The I/O backend this test run asks its servers for, by name: `STOCKROOM_IO`, which
/// `stockroomd` itself reads, so servers the tests start as processes inherit it too. Scripts/test
/// runs the suites once with each backend.
public let requestedIOBackend = ProcessInfo.processInfo.environment["STOCKROOM_IO"] ?? "epoll"
