import Foundation
import StockroomTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Heap allocations a real `stockroomd` makes, counted by a malloc wrapper loaded with
/// `LD_PRELOAD`: a count of work done, where a time would be noise on a shared 2-core machine,
/// and valgrind cannot read this toolchain's debug info.
///
/// The wrapper is C, built here with the system's `cc` into a temporary directory. Every
/// `malloc`, `calloc`, `realloc`, `memalign`, `aligned_alloc` and `posix_memalign` adds one to
/// the process's count and to its thread's, in a file the server maps shared
/// (`STOCKROOM_MALLOC_COUNTS`); the test reads the file whenever it likes, so nothing is
/// signalled and nothing waits for the server to write. Swift's allocations all go through
/// these (`swift_slowAlloc` is `malloc` or `posix_memalign`), as do SQLite's and OpenSSL's.
final class AllocationCount: @unchecked Sendable {
  /// Slot 0 is the process; slots 1... are one thread each, `(tid, count)`, as the C below lays
  /// them out.
  private static let slots = 256

  private static let source = """
    #define _GNU_SOURCE
    #include <errno.h>
    #include <fcntl.h>
    #include <stdint.h>
    #include <stdlib.h>
    #include <sys/mman.h>
    #include <sys/syscall.h>
    #include <unistd.h>

    extern void *__libc_malloc(size_t);
    extern void *__libc_calloc(size_t, size_t);
    extern void *__libc_realloc(void *, size_t);
    extern void *__libc_memalign(size_t, size_t);

    struct slot { int64_t tid; uint64_t count; };
    enum { SLOTS = \(slots) };
    static struct slot *slots;
    /* initial-exec: a preloaded library's TLS is static, so reading it never allocates. */
    static __thread int mine __attribute__((tls_model("initial-exec"))) = -1;

    __attribute__((constructor)) static void counter_open(void) {
      const char *path = getenv("STOCKROOM_MALLOC_COUNTS");
      if (!path) return;
      int fd = open(path, O_RDWR | O_CLOEXEC);
      if (fd < 0) return;
      void *map = mmap(0, SLOTS * sizeof(struct slot), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      close(fd);
      if (map != MAP_FAILED) slots = map;
    }

    static void counted(void) {
      struct slot *s = slots;
      if (!s) return;
      __atomic_fetch_add(&s[0].count, 1, __ATOMIC_RELAXED);
      if (mine < 0) {
        int64_t tid = syscall(SYS_gettid);
        mine = 0;
        for (int i = 1; i < SLOTS; i++) {
          int64_t none = 0;
          if (__atomic_compare_exchange_n(&s[i].tid, &none, tid, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
            mine = i;
            break;
          }
        }
      }
      if (mine > 0) __atomic_fetch_add(&s[mine].count, 1, __ATOMIC_RELAXED);
    }

    void *malloc(size_t size) { counted(); return __libc_malloc(size); }
    void *calloc(size_t count, size_t size) { counted(); return __libc_calloc(count, size); }
    void *realloc(void *old, size_t size) { counted(); return __libc_realloc(old, size); }
    void *memalign(size_t alignment, size_t size) { counted(); return __libc_memalign(alignment, size); }
    void *aligned_alloc(size_t alignment, size_t size) { counted(); return __libc_memalign(alignment, size); }
    int posix_memalign(void **out, size_t alignment, size_t size) {
      if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
      counted();
      void *p = __libc_memalign(alignment, size);
      if (!p) return ENOMEM;
      *out = p;
      return 0;
    }
    """

  /// The wrapper, built once per test process.
  private static let library = Result { try build() }

  private static func build() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("malloc-count-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let code = directory.appendingPathComponent("count.c").path
    let library = directory.appendingPathComponent("count.so").path
    let errors = directory.appendingPathComponent("cc.log").path
    try source.write(toFile: code, atomically: true, encoding: .utf8)
    let status = try Subprocess.run(
      "/usr/bin/cc", ["-O2", "-shared", "-fPIC", "-o", library, code], environment: ["PATH": "/usr/bin:/bin"],
      stderr: errors)
    guard status == 0 else {
      let log = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
      throw LineClient.Failure(description: "cc exited \(status) building the malloc counter:\n\(log)")
    }
    return library
  }

  /// The shared file the server counts into.
  let path: String

  init() throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("malloc-counts-\(UUID().uuidString)").path
    guard FileManager.default.createFile(atPath: path, contents: Data(count: Self.slots * 16)) else {
      throw LineClient.Failure(description: "cannot make \(path)")
    }
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  /// What runs `stockroomd` with the counter loaded: `DaemonProcess`'s prefix.
  func prefix() throws -> [String] {
    let library = try Self.library.get()
    return ["/usr/bin/env", "LD_PRELOAD=\(library)", "STOCKROOM_MALLOC_COUNTS=\(path)"]
  }

  /// Allocations so far: the process's, and each thread's by its id.
  struct Counts {
    var total: UInt64
    var threads: [Int64: UInt64]
  }

  func read() throws -> Counts {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard data.count >= Self.slots * 16 else { throw LineClient.Failure(description: "short counts file") }
    return data.withUnsafeBytes { bytes in
      var counts = Counts(total: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self), threads: [:])
      for slot in 1..<Self.slots {
        let tid = bytes.loadUnaligned(fromByteOffset: slot * 16, as: Int64.self)
        guard tid != 0 else { break }
        counts.threads[tid] = bytes.loadUnaligned(fromByteOffset: slot * 16 + 8, as: UInt64.self)
      }
      return counts
    }
  }

  /// Allocations by the process while `body` ran, and by each named thread of `pid` that made
  /// any (`sr-loop-0`, `sr-committer`), for a failure message that says where they went.
  func during(of pid: Int32, _ body: () throws -> Void) throws -> (total: UInt64, byThread: [String: UInt64]) {
    let before = try read()
    try body()
    let after = try read()
    var byThread: [String: UInt64] = [:]
    for (tid, count) in after.threads where count > before.threads[tid, default: 0] {
      let name =
        (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/comm", encoding: .utf8))?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? "thread \(tid)"
      byThread[name, default: 0] += count - before.threads[tid, default: 0]
    }
    return (after.total - before.total, byThread)
  }
}
