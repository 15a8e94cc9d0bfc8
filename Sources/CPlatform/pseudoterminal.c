#define _GNU_SOURCE
#include "CPlatform.h"

int nmeastream_open_pseudoterminal(unsigned int *number) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return -1;
    unsigned int slave = 0;
    // grantpt has nothing to do on devpts; unlockpt and the slave's number are two ioctls.
    if (grantpt(fd) != 0 || unlockpt(fd) != 0 || ioctl(fd, TIOCGPTN, &slave) != 0) {
        int code = errno;
        close(fd);
        errno = code;
        return -1;
    }
    *number = slave;
    return fd;
}
