import StockroomFixtures
import StockroomSystem

/// The tests' certificates: StockroomSystem's CA, server, wrong-host, self-signed and client
/// set, made once per test process.
public typealias TestCertificates = LoopbackCertificates
