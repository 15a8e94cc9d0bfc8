// The SQLite C API (package libsqlite3-dev), as the CSQLite module.
#include <sqlite3.h>
