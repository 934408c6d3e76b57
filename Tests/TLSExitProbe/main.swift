// Says whether OpenSSL cleans up from an exit handler in a program that makes a `TLSContext`:
// `TLSExitTests` runs it. With `--openssl-first` OpenSSL is initialised its default way before
// that, as a library such as libpq would (and as every program did before `TLSLibrary`), to show
// the probe sees the clean-up when it is there.
import COpenSSL
import StockroomTLS

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

if CommandLine.arguments.contains("--openssl-first") { _ = OPENSSL_init_ssl(0, nil) }
// OPENSSL_cleanup runs the handlers given here; it runs at exit only when its own exit handler
// was registered.
_ = OPENSSL_atexit {
  let line = "openssl cleaned up at exit\n"
  _ = line.withCString { write(1, $0, strlen($0)) }
}
do {
  _ = try TLSContext.client(verify: false)
  print("context made")
} catch {
  print("no context: \(error)")
  exit(1)
}
exit(0)
