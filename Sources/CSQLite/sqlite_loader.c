// SQLite (1.4 MB mapped) is loaded only by the command that keeps a store on disk
// (`publish`): `serve`, `read` and the rest do not carry it. Each sqlite3_ function the
// program calls is defined here with the header's own prototype (so the compiler checks it)
// and calls the library's. The same pattern as mosquitto_loader.c.
#include <pthread.h>
#include <stddef.h>
#include "CPlatform.h"
#include "CSQLite.h"

// Type, name, parameters, arguments, what a call returns unloaded.
#define FUNCTIONS(X) \
    X(int, sqlite3_open_v2, (const char *filename, sqlite3 **ppDb, int flags, const char *zVfs), \
      (filename, ppDb, flags, zVfs), SQLITE_CANTOPEN) \
    X(int, sqlite3_close_v2, (sqlite3 *db), (db), SQLITE_MISUSE) \
    X(int, sqlite3_extended_result_codes, (sqlite3 *db, int onoff), (db, onoff), SQLITE_MISUSE) \
    X(int, sqlite3_db_readonly, (sqlite3 *db, const char *zDbName), (db, zDbName), -1) \
    X(int, sqlite3_busy_timeout, (sqlite3 *db, int ms), (db, ms), SQLITE_MISUSE) \
    X(int, sqlite3_exec, (sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *argument, \
      char **errmsg), (db, sql, callback, argument, errmsg), SQLITE_MISUSE) \
    X(int, sqlite3_prepare_v2, (sqlite3 *db, const char *zSql, int nByte, sqlite3_stmt **ppStmt, const char **pzTail), \
      (db, zSql, nByte, ppStmt, pzTail), SQLITE_MISUSE) \
    X(int, sqlite3_step, (sqlite3_stmt *statement), (statement), SQLITE_MISUSE) \
    X(int, sqlite3_reset, (sqlite3_stmt *pStmt), (pStmt), SQLITE_MISUSE) \
    X(int, sqlite3_finalize, (sqlite3_stmt *pStmt), (pStmt), SQLITE_MISUSE) \
    X(int, sqlite3_clear_bindings, (sqlite3_stmt *statement), (statement), SQLITE_MISUSE) \
    X(int, sqlite3_bind_blob, (sqlite3_stmt *statement, int index, const void *value, int n, void (*destructor)(void *)), \
      (statement, index, value, n, destructor), SQLITE_MISUSE) \
    X(int, sqlite3_bind_int64, (sqlite3_stmt *statement, int index, sqlite3_int64 value), (statement, index, value), \
      SQLITE_MISUSE) \
    X(int, sqlite3_bind_text, (sqlite3_stmt *statement, int index, const char *value, int n, \
      void (*destructor)(void *)), (statement, index, value, n, destructor), SQLITE_MISUSE) \
    X(const void *, sqlite3_column_blob, (sqlite3_stmt *statement, int iCol), (statement, iCol), NULL) \
    X(int, sqlite3_column_bytes, (sqlite3_stmt *statement, int iCol), (statement, iCol), 0) \
    X(sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt *statement, int iCol), (statement, iCol), 0) \
    X(const unsigned char *, sqlite3_column_text, (sqlite3_stmt *statement, int iCol), (statement, iCol), NULL) \
    X(const char *, sqlite3_errmsg, (sqlite3 *db), (db), "libsqlite3 is not loaded") \
    X(const char *, sqlite3_errstr, (int code), (code), "libsqlite3 is not loaded") \
    X(int, sqlite3_system_errno, (sqlite3 *db), (db), 0)

#define POINTER(type, name, parameters, arguments, unloaded) static type (*loaded_##name) parameters;
FUNCTIONS(POINTER)

#define NAME(type, name, parameters, arguments, unloaded) #name,
#define SLOT(type, name, parameters, arguments, unloaded) (void **)&loaded_##name,
static const char *const names[] = { FUNCTIONS(NAME) };
static void **const slots[] = { FUNCTIONS(SLOT) };

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure;
static char message[512];

static void load(void) {
    failure = nmeastream_load_library("libsqlite3.so.0", names, slots, sizeof names / sizeof names[0], message, sizeof message);
}

const char *nmeastream_sqlite_load(void) {
    pthread_once(&once, load);
    return failure;
}

#define FORWARD(type, name, parameters, arguments, unloaded) \
    type name parameters { \
        return nmeastream_sqlite_load() == NULL ? loaded_##name arguments : unloaded; \
    }
FUNCTIONS(FORWARD)
