/// Versions announced in the greeting line.
public enum ProtocolVersion {
  /// Bumped only for changes an existing client could misread.
  public static let current = 2
  public static let serverVersion = "0.1.0"
  public static let defaultPort: UInt16 = 7878
  /// The same protocol inside TLS (`stockrooms://`, `stockroom --tls`).
  public static let defaultTLSPort: UInt16 = 7879
  public static let defaultMaxLine = 64 * 1024
}
