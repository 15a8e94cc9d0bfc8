// The SQLite C API (headers: libsqlite3-dev), as the CSQLite module. The library itself is
// loaded when the first database is opened, not when the program starts: see
// sqlite_loader.c.
#include <sqlite3.h>

/// Loads libsqlite3.so.0 once. Returns NULL when it is loaded, or why it could not be (the
/// loader's message); every sqlite3_ function here needs it loaded.
const char *nmeastream_sqlite_load(void);
