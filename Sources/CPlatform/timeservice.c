#define _GNU_SOURCE
#include "CPlatform.h"
#include <linux/pps.h>
#include <math.h>

ssize_t nmeastream_send_datagram(int fd, const char *path, const void *bytes, size_t length) {
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    if (strlen(path) >= sizeof address.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(address.sun_path, path);
    return sendto(fd, bytes, length, MSG_DONTWAIT | MSG_NOSIGNAL, (struct sockaddr *)&address, sizeof address);
}

int nmeastream_pps_fetch(int fd, double timeout_seconds, struct timespec *assert_time, unsigned int *sequence) {
    struct pps_fdata data;
    memset(&data, 0, sizeof data);
    double whole = floor(timeout_seconds);
    data.timeout.sec = (long long)whole;
    data.timeout.nsec = (int)((timeout_seconds - whole) * 1e9);
    data.timeout.flags = 0;
    if (ioctl(fd, PPS_FETCH, &data) != 0) return -1;
    assert_time->tv_sec = (time_t)data.info.assert_tu.sec;
    assert_time->tv_nsec = (long)data.info.assert_tu.nsec;
    *sequence = data.info.assert_sequence;
    return 0;
}

int nmeastream_wait_dcd_change(int fd, struct timespec *when, int *asserted) {
    sigset_t previous;
    nmeastream_unblock_interrupt(&previous);
    int waited = ioctl(fd, TIOCMIWAIT, TIOCM_CAR);
    int error = errno;
    nmeastream_restore_signal_mask(&previous);
    if (waited != 0) {
        errno = error;
        return -1;
    }
    clock_gettime(CLOCK_REALTIME, when);
    int lines = 0;
    if (ioctl(fd, TIOCMGET, &lines) != 0) return -1;
    *asserted = (lines & TIOCM_CAR) != 0;
    return 0;
}

static void nmeastream_ignore_interrupt(int signal_number) { (void)signal_number; }

static void nmeastream_install_interrupt(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = nmeastream_ignore_interrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;
    sigaction(SIGRTMIN + 7, &action, NULL);
}

void nmeastream_prepare_interrupt(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, nmeastream_install_interrupt);
}

int nmeastream_interrupt_thread(pthread_t thread) {
    return pthread_kill(thread, SIGRTMIN + 7);
}

void nmeastream_unblock_interrupt(sigset_t *previous) {
    sigset_t interrupt;
    sigemptyset(&interrupt);
    sigaddset(&interrupt, SIGRTMIN + 7);
    pthread_sigmask(SIG_UNBLOCK, &interrupt, previous);
}

void nmeastream_restore_signal_mask(const sigset_t *previous) {
    pthread_sigmask(SIG_SETMASK, previous, NULL);
}

int nmeastream_has_modem_lines(int fd) {
    int lines = 0;
    return ioctl(fd, TIOCMGET, &lines) == 0 ? 1 : 0;
}

struct nmeastream_shm_time *nmeastream_shm_attach(int unit, int permissions) {
    int id = shmget((key_t)(0x4e545030 + unit), sizeof(struct nmeastream_shm_time), IPC_CREAT | permissions);
    if (id == -1) return NULL;
    void *segment = shmat(id, NULL, 0);
    if (segment == (void *)-1) return NULL;
    return segment;
}

void nmeastream_shm_detach(struct nmeastream_shm_time *segment) {
    shmdt((const void *)segment);
}

void nmeastream_shm_write(struct nmeastream_shm_time *segment, long long true_seconds, long true_nanoseconds,
                          long long system_seconds, long system_nanoseconds, int leap, int precision) {
    segment->valid = 0;
    segment->count++;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    segment->clockTimeStampSec = (time_t)true_seconds;
    segment->clockTimeStampUSec = (int)(true_nanoseconds / 1000);
    segment->clockTimeStampNSec = (unsigned)true_nanoseconds;
    segment->receiveTimeStampSec = (time_t)system_seconds;
    segment->receiveTimeStampUSec = (int)(system_nanoseconds / 1000);
    segment->receiveTimeStampNSec = (unsigned)system_nanoseconds;
    segment->leap = leap;
    segment->precision = precision;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    segment->count++;
    segment->valid = 1;
}
