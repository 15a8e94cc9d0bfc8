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
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/// The calling thread's errno.
static inline int nmeastream_errno(void) { return errno; }

/// `open(path, flags)`, with no mode (nothing here creates files).
static inline int nmeastream_open(const char *path, int flags) { return open(path, flags); }

/// `open(path, flags, mode)`, for files that are created (O_CREAT).
static inline int nmeastream_create(const char *path, int flags, mode_t mode) { return open(path, flags | O_CREAT, mode); }

/// `ioctl(fd, request)` for requests that take no argument (TIOCEXCL, TIOCNXCL).
static inline int nmeastream_ioctl(int fd, unsigned long request) { return ioctl(fd, request); }

/// The size of the terminal `fd` (`ioctl(fd, TIOCGWINSZ)`), 0 on success.
static inline int nmeastream_window_size(int fd, struct winsize *size) { return ioctl(fd, TIOCGWINSZ, size); }

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

/// chrony's SOCK reference-clock sample (`struct sock_sample` in chrony's refclock_sock.c),
/// declared here so that the C compiler lays it out as chronyd's own build does on this
/// platform (`struct timeval` is 8 or 16 bytes depending on `time_t`).
struct nmeastream_sock_sample {
    struct timeval tv;   // the system time of the measurement
    double offset;       // true time minus system time, seconds
    int pulse;           // non-zero: a pulse, whose second another source must give
    int leap;            // 0 none, 1 a leap second is inserted, 2 one is deleted, at the end of the day
    int pad;
    int magic;           // 0x534f434b ("SOCK")
};

/// Sends `length` bytes as one datagram to the Unix socket at `path` (not connected: each
/// send finds the socket chronyd made, so a restarted chronyd is reached at once). Returns
/// the count sent, or -1 with errno set.
ssize_t nmeastream_send_datagram(int fd, const char *path, const void *bytes, size_t length);

/// Waits up to `timeout_seconds` for the next assert edge on a kernel PPS device
/// (`/dev/ppsN`, `PPS_FETCH`); stores its time (CLOCK_REALTIME) and sequence number.
/// Returns 0, or -1 with errno set (ETIMEDOUT when no pulse came).
int nmeastream_pps_fetch(int fd, double timeout_seconds, struct timespec *assert_time, unsigned int *sequence);

/// Waits for the serial line's DCD (carrier detect) to change (`TIOCMIWAIT`), then reads the
/// system time and whether DCD is now asserted. Returns 0, or -1 with errno set (EINTR when
/// `nmeastream_interrupt_thread` ended the wait: the interrupt signal is let through to the
/// calling thread for the wait only, as Dispatch's threads block signals).
int nmeastream_wait_dcd_change(int fd, struct timespec *when, int *asserted);

/// Makes `nmeastream_interrupt_thread` able to end a blocking call of a thread: installs, once
/// per process, a handler that does nothing for one real-time signal (SIGRTMIN + 7, which
/// nothing else in the process uses), without SA_RESTART, so that the call fails with EINTR.
void nmeastream_prepare_interrupt(void);

/// Sends that signal to `thread`: a blocking call it is in fails with EINTR, if the thread
/// lets the signal through (`nmeastream_wait_dcd_change` does; `..._unblock_interrupt` for
/// other calls).
/// Returns 0 or an error number.
int nmeastream_interrupt_thread(pthread_t thread);

/// Lets the interrupt signal through to the calling thread (saving its mask in `previous`),
/// and puts the mask back.
void nmeastream_unblock_interrupt(sigset_t *previous);
void nmeastream_restore_signal_mask(const sigset_t *previous);

/// Whether `fd` is a line with modem control lines (TIOCMGET answers): 1, or 0 with errno set
/// (a pseudo-terminal has none).
int nmeastream_has_modem_lines(int fd);

/// ntpd's shared-memory reference-clock segment (`struct shmTime` in ntpd's refclock_shm.c),
/// which ntpd, ntpsec and chronyd (`refclock SHM`) read; declared here so that the C compiler
/// lays it out as theirs do on this platform (`time_t` and its alignment decide the offsets).
struct nmeastream_shm_time {
    int mode;                       // 1: readers check `count` before and after reading
    volatile int count;             // bumped before and after each write
    time_t clockTimeStampSec;       // the true time (the receiver's), seconds
    int clockTimeStampUSec;         //   and microseconds
    time_t receiveTimeStampSec;     // the system time it was taken at, seconds
    int receiveTimeStampUSec;       //   and microseconds
    int leap;                       // 0 none, 1 insert, 2 delete, 3 not in sync
    int precision;                  // log2 of the precision in seconds (-20: about 1 us)
    int nsamples;                   // the readers' median filter's stages
    volatile int valid;             // 1: a sample is there; the reader clears it
    unsigned clockTimeStampNSec;    // the true time's nanoseconds
    unsigned receiveTimeStampNSec;  // the system time's nanoseconds
    int dummy[8];
};

/// Attaches NTP shared-memory unit `unit` (key "NTP0" + unit), creating it with `permissions`
/// (0600 for units 0 and 1, 0666 above, as ntpd and gpsd do) when it is not there. Returns the
/// segment, or NULL with errno set.
struct nmeastream_shm_time *nmeastream_shm_attach(int unit, int permissions);

/// Detaches a segment (the segment stays for its readers).
void nmeastream_shm_detach(struct nmeastream_shm_time *segment);

/// Writes one sample with gpsd's handshake: `valid` cleared and `count` bumped, the values
/// written between two memory barriers, then `count` bumped and `valid` set.
void nmeastream_shm_write(struct nmeastream_shm_time *segment, long long true_seconds, long true_nanoseconds,
                          long long system_seconds, long system_nanoseconds, int leap, int precision);

/// Makes a spawned child close every descriptor from `lowest` up
/// (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34). Returns 0 or an error number.
int nmeastream_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// Loads the shared library `soname` once nmeastream needs it (dlopen, RTLD_NOW | RTLD_LOCAL)
/// and stores each of `count` functions `names[i]` at `slots[i]`. Returns NULL when all are
/// there, or why not: the loader's message, kept in `message` (`size` bytes).
const char *nmeastream_load_library(const char *soname, const char *const *names, void **const *slots, size_t count,
                                    char *message, size_t size);

#endif
