import COpenSSL

/// OpenSSL's process-wide setup, done once and first: without its clean-up at exit.
///
/// By default OpenSSL frees its global state from an `atexit` handler. A thread that is still
/// ending when the process exits frees its own OpenSSL state at the same time, and one of the
/// two then touches memory the other freed: the bench's load generator crashed that way about
/// once in a hundred TLS runs. Only the first initialisation decides, so every program calls
/// `prepare()` before anything else can initialise OpenSSL (libpq does too), and every
/// `TLSContext` calls it again for programs that did not.
public enum TLSLibrary {
  private static let prepared: Bool = sr_openssl_init_without_atexit() == 1

  /// Initialises OpenSSL without its exit handler; true when OpenSSL accepted that.
  @discardableResult
  public static func prepare() -> Bool { prepared }
}
