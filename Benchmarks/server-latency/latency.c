// Byte-to-client latency of a gpsd-protocol server: writes one epoch of NMEA at a time into a
// pseudo-terminal that the server reads, and times how long until every watching client has
// read that epoch's TPV. See ../README.md ("gpsd-protocol server").
//
// usage: latency CLIENTS EPOCHS INTERVAL_MS -- SERVER [ARGUMENT...]
//   In the server's arguments {device} is the pseudo-terminal's path and {port} a free port.
// LATENCY_MODE=nmea: the clients watch with `?WATCH={"enable":true,"nmea":true}` and are timed
// on the epoch's RMC sentence, its last. LATENCY_MODE=feed: the same sentence, from a plain NMEA
// feed on {port} (nmeastream's `serve --nmea`), to which the clients send nothing; the gpsd
// port, where the server's greeting is waited for, is {gpsdport}.
// Prints one line of JSON: clients connected, latencies (p50, p99, max, microseconds), epochs
// missed, the server's CPU seconds while idle (3 s of epochs, nobody watching) and while
// serving, and its peak resident memory (VmHWM, kB).
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "../common/harness.h"

enum { maxClients = 2000, bufferSize = 1 << 16 };

typedef struct {
    int fd;
    char buffer[bufferSize];
    size_t used;
    int lastEpoch;      // the index of the last TPV (or RMC) read
    int refused;
} Client;

static Client clients[maxClients];
// Whether the clients are timed on the RMC sentence rather than the TPV (LATENCY_MODE).
static int sentences = 0;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}


// Epoch `index`: 12:00:00 plus index seconds on 2024-06-05; GGA, GSA, three GSV, RMC.
static size_t epoch(char *out, size_t size, int index) {
    int seconds = 12 * 3600 + index;
    char time[16], body[160], line[200];
    snprintf(time, sizeof time, "%02d%02d%02d.00", seconds / 3600 % 24, seconds / 60 % 60, seconds % 60);
    out[0] = 0;
    snprintf(body, sizeof body, "GPGGA,%s,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,", time);
    sentence(line, sizeof line, body); strncat(out, line, size - strlen(out) - 1);
    sentence(line, sizeof line, "GPGSA,A,3,05,13,15,18,23,24,25,26,,,,,1.6,0.9,1.3");
    strncat(out, line, size - strlen(out) - 1);
    sentence(line, sizeof line, "GPGSV,3,1,10,05,45,120,40,13,60,200,42,15,30,300,38,18,20,050,35");
    strncat(out, line, size - strlen(out) - 1);
    sentence(line, sizeof line, "GPGSV,3,2,10,23,10,010,30,24,15,080,33,25,55,150,41,26,35,250,39");
    strncat(out, line, size - strlen(out) - 1);
    sentence(line, sizeof line, "GPGSV,3,3,10,29,05,100,,31,08,330,25");
    strncat(out, line, size - strlen(out) - 1);
    snprintf(body, sizeof body, "GPRMC,%s,A,5207.4074,N,00419.2659,E,0.0,0.0,050624,,,A", time);
    sentence(line, sizeof line, body); strncat(out, line, size - strlen(out) - 1);
    return strlen(out);
}



static int connectTo(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons(port) };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { close(fd); return -1; }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static int freePort(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = { .sin_family = AF_INET };
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd, (struct sockaddr *)&address, sizeof address);
    socklen_t length = sizeof address;
    getsockname(fd, (struct sockaddr *)&address, &length);
    close(fd);
    return ntohs(address.sin_port);
}

// Reads what `client` has; returns 1 when its TPV of `epoch` is among it.
static void drain(Client *client, int epoch, double written, double *latencies, int *count) {
    for (;;) {
        ssize_t n = recv(client->fd, client->buffer + client->used, bufferSize - client->used - 1, MSG_DONTWAIT);
        if (n <= 0) {
            if (n == 0) client->refused = 1;
            return;
        }
        client->used += n;
        client->buffer[client->used] = 0;
        char *start = client->buffer, *end;
        while ((end = strchr(start, '\n'))) {
            *end = 0;
            if (strstr(start, "\"class\":\"ERROR\"")) client->refused = 1;
            int h, m, s, found = 0;
            if (sentences) {
                char *rmc = strstr(start, "$GPRMC,");
                found = rmc && sscanf(rmc + 7, "%2d%2d%2d", &h, &m, &s) == 3;
            } else {
                char *tpv = strstr(start, "{\"class\":\"TPV\"");
                char *time = tpv ? strstr(tpv, "\"time\":\"2024-06-05T") : NULL;
                found = time && sscanf(time + 19, "%d:%d:%d", &h, &m, &s) == 3;
            }
            if (found) {
                int index = h * 3600 + m * 60 + s - 12 * 3600;
                if (index == epoch && client->lastEpoch != epoch) latencies[(*count)++] = (now() - written) * 1e6;
                client->lastEpoch = index;
            }
            start = end + 1;
        }
        client->used -= start - client->buffer;
        memmove(client->buffer, start, client->used);
    }
}

// `text` with the first `name` in it replaced by `value` (a new string), or `text` itself.
static char *substitute(char *text, const char *name, const char *value) {
    char *found = strstr(text, name);
    if (!found) return text;
    size_t size = strlen(text) - strlen(name) + strlen(value) + 1;
    char *result = malloc(size);
    snprintf(result, size, "%.*s%s%s", (int)(found - text), text, value, found + strlen(name));
    return result;
}


int main(int argc, char **argv) {
    if (argc < 6 || strcmp(argv[4], "--") != 0) {
        fprintf(stderr, "usage: latency CLIENTS EPOCHS INTERVAL_MS -- SERVER [ARGUMENT...]\n");
        return 64;
    }
    int wanted = atoi(argv[1]), epochs = atoi(argv[2]), interval = atoi(argv[3]);
    if (wanted > maxClients) wanted = maxClients;
    const char *mode = getenv("LATENCY_MODE");
    int feed = mode && strcmp(mode, "feed") == 0;
    sentences = feed || (mode && strcmp(mode, "nmea") == 0);
    signal(SIGPIPE, SIG_IGN);

    int master = posix_openpt(O_RDWR | O_NOCTTY);
    grantpt(master);
    unlockpt(master);
    char device[64];
    ptsname_r(master, device, sizeof device);
    int hold = open(device, O_RDWR | O_NOCTTY);
    struct termios settings;
    tcgetattr(hold, &settings);
    cfmakeraw(&settings);
    tcsetattr(hold, TCSANOW, &settings);
    int port = freePort();
    int gpsdPort = feed ? freePort() : port;

    char portText[16], gpsdPortText[16];
    snprintf(portText, sizeof portText, "%d", port);
    snprintf(gpsdPortText, sizeof gpsdPortText, "%d", gpsdPort);
    char **serverArguments = calloc(argc, sizeof(char *));
    for (int i = 5; i < argc; i++) {
        serverArguments[i - 5] = substitute(substitute(substitute(argv[i], "{device}", device), "{gpsdport}", gpsdPortText), "{port}", portText);
    }
    pid_t server = fork();
    if (server == 0) {
        // Its output and errors to /dev/null, unless LATENCY_SERVER_LOG names a file.
        const char *log = getenv("LATENCY_SERVER_LOG");
        int sink = open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0644);
        dup2(sink, 1);
        dup2(sink, 2);
        execvp(serverArguments[0], serverArguments);
        _exit(127);
    }
    // Waits for the server to listen.
    // A connection that the server greets with its VERSION (a connection to a port nobody
    // listens on can meet itself).
    int probe = -1;
    for (int i = 0; i < 1000 && probe < 0 && waitpid(server, NULL, WNOHANG) == 0; i++) {
        usleep(10000);
        probe = connectTo(gpsdPort);
        if (probe < 0) continue;
        struct timeval timeout = { .tv_sec = 2 };
        setsockopt(probe, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        char greeting[512] = { 0 };
        if (recv(probe, greeting, sizeof greeting - 1, 0) <= 0 || !strstr(greeting, "\"class\":\"VERSION\"")) {
            close(probe);
            probe = -1;
        }
    }
    if (probe < 0) { fprintf(stderr, "latency: the server does not listen\n"); kill(server, SIGKILL); return 1; }
    close(probe);

    char bytes[2048];
    // Idle: epochs written while nobody watches.
    usleep(500000);
    double idleStart = cpuSeconds(server);
    for (int i = 0; i < 30; i++) {
        size_t n = epoch(bytes, sizeof bytes, 3000 + i);
        if (write(master, bytes, n) < 0) break;
        usleep(100000);
    }
    double idle = cpuSeconds(server) - idleStart;
    // Drains what the server may write to the device (gpsd probes).
    char sink[4096];
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    while (read(master, sink, sizeof sink) > 0) {}

    int epollFD = epoll_create1(0);
    int connected = 0;
    for (int i = 0; i < wanted; i++) {
        int fd = connectTo(port);
        if (fd < 0) break;
        clients[connected] = (Client){ .fd = fd, .lastEpoch = -1 };
        const char *watch = feed ? "" : sentences ? "?WATCH={\"enable\":true,\"nmea\":true};\n" : "?WATCH={\"enable\":true,\"json\":true};\n";
        send(fd, watch, strlen(watch), MSG_NOSIGNAL);
        struct epoll_event event = { .events = EPOLLIN, .data.u32 = connected };
        epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event);
        connected++;
    }
    double *latencies = calloc((size_t)connected * epochs + 1, sizeof(double));
    int count = 0;
    struct epoll_event events[256];
    // Settles: the clients' VERSION, DEVICES and WATCH are read, the device opened, a few
    // warm-up epochs.
    double settle = now() + 1.5;
    int warm = 0;
    while (now() < settle) {
        if (warm < 5 && now() > settle - 1.0 + warm * 0.1) {
            size_t n = epoch(bytes, sizeof bytes, 3100 + warm++);
            if (write(master, bytes, n) < 0) break;
        }
        int ready = epoll_wait(epollFD, events, 256, 10);
        int ignored = 0;
        for (int i = 0; i < ready; i++) drain(&clients[events[i].data.u32], -1, 0, latencies, &ignored);
        while (read(master, sink, sizeof sink) > 0) {}
    }
    int refused = 0;
    for (int i = 0; i < connected; i++) refused += clients[i].refused;

    double serveStart = cpuSeconds(server);
    int missed = 0;
    for (int k = 0; k < epochs; k++) {
        double next = now() + interval / 1000.0;
        size_t n = epoch(bytes, sizeof bytes, k);
        double written = now();
        if (write(master, bytes, n) < 0) break;
        int waiting = connected - refused;
        int before = count;
        double deadline = written + 2.0;
        while (count - before < waiting && now() < deadline) {
            int ready = epoll_wait(epollFD, events, 256, 20);
            for (int i = 0; i < ready; i++) drain(&clients[events[i].data.u32], k, written, latencies, &count);
        }
        missed += waiting - (count - before);
        while (read(master, sink, sizeof sink) > 0) {}
        while (now() < next) {
            int ready = epoll_wait(epollFD, events, 256, 5);
            for (int i = 0; i < ready; i++) drain(&clients[events[i].data.u32], k, written, latencies, &count);
        }
    }
    double serving = cpuSeconds(server) - serveStart;
    long peak = peakKilobytes(server);
    kill(server, SIGTERM);
    waitpid(server, NULL, 0);

    qsort(latencies, count, sizeof(double), compareDoubles);
    double p50 = count ? latencies[count / 2] : 0, p99 = count ? latencies[(int)(count * 0.99)] : 0;
    double max = count ? latencies[count - 1] : 0;
    printf("{\"clients\":%d,\"refused\":%d,\"epochs\":%d,\"reports\":%d,\"missed\":%d,\"p50_us\":%.0f,\"p99_us\":%.0f,\"max_us\":%.0f,"
           "\"idle_cpu_s\":%.2f,\"serving_cpu_s\":%.2f,\"peak_kB\":%ld}\n",
           connected - refused, refused, epochs, count, missed, p50, p99, max, idle, serving, peak);
    return 0;
}
