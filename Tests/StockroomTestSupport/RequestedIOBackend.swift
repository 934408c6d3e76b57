import Foundation

/// The I/O backend this test run asks its servers for, by name: `STOCKROOM_IO`, which
/// `stockroomd` itself reads, so servers the tests start as processes inherit it too. Scripts/test
/// runs the suites once with each backend.
///
/// A name that is none of `Backend`'s stops the run instead of falling back to the default: a
/// typo in CI would otherwise test one backend twice and the other not at all, and pass.
///
/// Whoever asks is starting a server on that backend, so the running test's suite must be one
/// the Dispatch pass runs (`IOBackendSuites`).
public func requestedIOBackend<Backend: RawRepresentable & CaseIterable>(
  as _: Backend.Type
) -> Backend where Backend.RawValue == String {
  IOBackendSuites.check(starting: "a server in the test process")
  let name = ProcessInfo.processInfo.environment["STOCKROOM_IO"] ?? "epoll"
  guard let backend = Backend(rawValue: name) else {
    let known = Backend.allCases.map(\.rawValue).joined(separator: ", ")
    fatalError("STOCKROOM_IO=\(name) names no I/O backend; it must be one of: \(known)")
  }
  return backend
}
