import StockroomEngine
import StockroomSystem

/// A `NamedThread` already is what the engine asks of a thread: started once, under its name,
/// and joinable from any thread, itself included.
extension NamedThread: WorkerThread {}
