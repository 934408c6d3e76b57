#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call: this names the one setting used.
   Without memory statistics, SQLite's every malloc and free skips a global mutex and its
   counters (nothing in Stockroom reads them). Only before the library is initialised. */
static inline int stockroom_sqlite3_config_memstatus(int on) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}
