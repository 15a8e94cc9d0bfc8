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
    if (ioctl(fd, TIOCMIWAIT, TIOCM_CAR) != 0) return -1;
    clock_gettime(CLOCK_REALTIME, when);
    int lines = 0;
    if (ioctl(fd, TIOCMGET, &lines) != 0) return -1;
    *asserted = (lines & TIOCM_CAR) != 0;
    return 0;
}
