// The floor of the byte-to-client benchmark on a given machine: the least a server can do.
// One thread on epoll greets each client with a VERSION, reads the pseudo-terminal, and for
// each RMC writes one short TPV (that RMC's time, a fixed position) to every client, one
// write(2) each. No decoding, no JSON rendering, no SKY, no watch handling: what remains is
// the kernel's cost of a loopback write and of waking the reader, and the harness's own
// reading, which no real server can go under.
//
// usage: floor DEVICE PORT
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: floor DEVICE PORT\n"); return 64; }
    int device = open(argv[1], O_RDWR | O_NOCTTY | O_NONBLOCK);
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons(atoi(argv[2])) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 1024)) { perror("listen"); return 1; }
    int epollFD = epoll_create1(0);
    struct epoll_event event = { .events = EPOLLIN, .data.fd = listener };
    epoll_ctl(epollFD, EPOLL_CTL_ADD, listener, &event);
    event.data.fd = device;
    epoll_ctl(epollFD, EPOLL_CTL_ADD, device, &event);
    static int clients[4096];
    int count = 0;
    char line[256], pending[4096];
    size_t used = 0;
    const char *version = "{\"class\":\"VERSION\",\"release\":\"floor\",\"proto_major\":3,\"proto_minor\":14}\r\n";
    for (;;) {
        struct epoll_event events[64];
        int ready = epoll_wait(epollFD, events, 64, -1);
        for (int i = 0; i < ready; i++) {
            int fd = events[i].data.fd;
            if (fd == listener) {
                int client;
                while ((client = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    write(client, version, strlen(version));
                    clients[count++] = client;
                    struct epoll_event e = { .events = EPOLLIN, .data.fd = client };
                    epoll_ctl(epollFD, EPOLL_CTL_ADD, client, &e);
                }
            } else if (fd == device) {
                ssize_t n = read(device, pending + used, sizeof pending - used - 1);
                if (n <= 0) continue;
                used += n;
                pending[used] = 0;
                char *rmc;
                while ((rmc = strstr(pending, "RMC,")) && strchr(rmc, '\n')) {
                    int length = snprintf(line, sizeof line,
                        "{\"class\":\"TPV\",\"device\":\"%s\",\"mode\":3,\"time\":\"2024-06-05T%.2s:%.2s:%.2s.000Z\",\"lat\":52.12345667,\"lon\":4.32109833,\"alt\":10.2}\r\n",
                        argv[1], rmc + 4, rmc + 6, rmc + 8);
                    for (int c = 0; c < count; c++) write(clients[c], line, length);
                    char *end = strchr(rmc, '\n') + 1;
                    used -= end - pending;
                    memmove(pending, end, used + 1);
                }
            } else {
                char sink[4096];
                ssize_t n = read(fd, sink, sizeof sink);
                if (n == 0) { epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, NULL); close(fd);
                    for (int c = 0; c < count; c++) if (clients[c] == fd) { clients[c] = clients[--count]; break; } }
            }
        }
    }
}
