// The one place nmeastream's device code takes the C library from: the system headers it
// uses, and fixed-arity wrappers for what Swift cannot import (errno and the variadic open,
// fcntl and ioctl are macros or variadic functions in C). Glibc and musl both provide these
// headers; a platform without them fails here, at build time.
#ifndef NMEASTREAM_CPLATFORM_H
#define NMEASTREAM_CPLATFORM_H

#if !defined(__linux__)
#error "nmeastream's device code needs Linux (termios, devpts, udev)"
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/// The calling thread's errno.
static inline int nmeastream_errno(void) { return errno; }

/// `open(path, flags)`, with no mode (nothing here creates files).
static inline int nmeastream_open(const char *path, int flags) { return open(path, flags); }

/// `ioctl(fd, request)` for requests that take no argument (TIOCEXCL, TIOCNXCL).
static inline int nmeastream_ioctl(int fd, unsigned long request) { return ioctl(fd, request); }

/// Ignores `signal` (SIG_IGN is a cast macro Swift cannot import).
static inline void nmeastream_ignore_signal(int signal_number) { signal(signal_number, SIG_IGN); }

/// Adds O_NONBLOCK to `fd`'s status flags.
static inline int nmeastream_set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

/// Opens a new pseudo-terminal's master side (read-write, no controlling terminal, closed on
/// exec) and unlocks its slave side; stores the slave's number (`/dev/pts/N`) in `number`.
/// Returns the master's descriptor, or -1 with errno set.
int nmeastream_open_pseudoterminal(unsigned int *number);

#endif
