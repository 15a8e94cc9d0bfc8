// Fleet benchmark: N simulated vehicles, each a pseudo-terminal fed 10 epochs a second with
// the current time and read by its own `nmeastream publish --device PTY`, all through one
// local mosquitto; one subscriber (libmosquitto, QoS 1) times each TPV from the moment its
// epoch was written to the moment it arrives. See ../../Documentation/fleets.md.
//
// usage: fleet VEHICLES SECONDS BROKER_PORT NMEASTREAM BROKER_PID
// Prints one line of JSON: vehicles, epochs written, TPVs received, missed, latency p50/p99/max
// (ms), the publishers' CPU seconds per vehicle per second, the broker's CPU seconds per second,
// and the publishers' mean peak resident memory (MB).
#define _GNU_SOURCE
#include <fcntl.h>
#include <mosquitto.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "../common/harness.h"

enum { maxVehicles = 2000, maxSamples = 4000000 };
static int masters[maxVehicles];
static pid_t publishers[maxVehicles];
static double *latencies;
static long sampleCount, received;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static double wallNow(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}


// GGA and RMC for wall time `when` (to the tenth of a second).
static size_t epoch(char *out, size_t size, double when) {
    time_t seconds = (time_t)when;
    int tenths = (int)((when - seconds) * 10 + 0.5) % 10;
    struct tm parts;
    gmtime_r(&seconds, &parts);
    char time[32], date[32], body[160], gga[200], rmc[200];
    snprintf(time, sizeof time, "%02d%02d%02d.%d0", parts.tm_hour, parts.tm_min, parts.tm_sec, tenths);
    snprintf(date, sizeof date, "%02d%02d%02d", parts.tm_mday, parts.tm_mon + 1, parts.tm_year % 100);
    snprintf(body, sizeof body, "GPGGA,%s,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,", time);
    sentence(gga, sizeof gga, body);
    snprintf(body, sizeof body, "GPRMC,%s,A,5207.4074,N,00419.2659,E,0.0,0.0,%s,,,A", time, date);
    sentence(rmc, sizeof rmc, body);
    return (size_t)snprintf(out, size, "%s%s", gga, rmc);
}

static void onMessage(struct mosquitto *client, void *user, const struct mosquitto_message *message) {
    (void)client; (void)user;
    double now = wallNow();
    const char *text = message->payload;
    const char *found = text ? strstr(text, "\"time\":\"") : NULL;
    if (!found) return;
    struct tm parts = {0};
    int year, month, day, hour, minute;
    double second;
    if (sscanf(found + 8, "%d-%d-%dT%d:%d:%lfZ", &year, &month, &day, &hour, &minute, &second) != 6) return;
    parts.tm_year = year - 1900; parts.tm_mon = month - 1; parts.tm_mday = day;
    parts.tm_hour = hour; parts.tm_min = minute; parts.tm_sec = 0;
    double written = timegm(&parts) + second;
    pthread_mutex_lock(&lock);
    received++;
    if (sampleCount < maxSamples) latencies[sampleCount++] = (now - written) * 1000;
    pthread_mutex_unlock(&lock);
}




int main(int argc, char **argv) {
    if (argc != 6) { fprintf(stderr, "usage: fleet VEHICLES SECONDS BROKER_PORT NMEASTREAM BROKER_PID\n"); return 64; }
    int vehicles = atoi(argv[1]), seconds = atoi(argv[2]), port = atoi(argv[3]);
    pid_t broker = atoi(argv[5]);
    if (vehicles > maxVehicles) vehicles = maxVehicles;
    latencies = calloc(maxSamples, sizeof(double));
    signal(SIGPIPE, SIG_IGN);

    mosquitto_lib_init();
    struct mosquitto *subscriber = mosquitto_new("fleet-benchmark", true, NULL);
    mosquitto_message_callback_set(subscriber, onMessage);
    if (mosquitto_connect(subscriber, "127.0.0.1", port, 30) != MOSQ_ERR_SUCCESS) { fprintf(stderr, "fleet: no broker\n"); return 1; }
    mosquitto_subscribe(subscriber, NULL, "fleet/+/tpv", 1);
    mosquitto_loop_start(subscriber);

    char url[128];
    snprintf(url, sizeof url, "mqtt://127.0.0.1:%d/fleet", port);
    for (int i = 0; i < vehicles; i++) {
        masters[i] = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
        grantpt(masters[i]);
        unlockpt(masters[i]);
        char device[64], name[32];
        ptsname_r(masters[i], device, sizeof device);
        int slave = open(device, O_RDWR | O_NOCTTY);
        struct termios settings;
        tcgetattr(slave, &settings);
        cfmakeraw(&settings);
        tcsetattr(slave, TCSANOW, &settings);
        close(slave);
        snprintf(name, sizeof name, "v%d", i);
        pid_t child = fork();
        if (child == 0) {
            int sink = open("/dev/null", O_WRONLY);
            dup2(sink, 1);
            dup2(sink, 2);
            execl(argv[4], argv[4], "publish", url, "--device", device, "--id", name, (char *)NULL);
            _exit(127);
        }
        publishers[i] = child;
    }
    // Warm-up: the publishers open their devices and find their speed; epochs flow, untimed.
    char bytes[512];
    double start = wallNow();
    while (wallNow() - start < 5) {
        double when = wallNow();
        size_t n = epoch(bytes, sizeof bytes, when);
        for (int i = 0; i < vehicles; i++) { ssize_t w = write(masters[i], bytes, n); (void)w; }
        usleep(100000);
    }
    usleep(1000000);
    pthread_mutex_lock(&lock);
    sampleCount = 0;
    received = 0;
    pthread_mutex_unlock(&lock);
    double cpuStart = 0;
    for (int i = 0; i < vehicles; i++) cpuStart += cpuSeconds(publishers[i]);
    double brokerStart = cpuSeconds(broker);
    long written = 0;
    double next = wallNow();
    double measureStart = next;
    while (next - measureStart < seconds) {
        // On the tenth of a second, as a receiver's epochs are.
        double when = ((long)(next * 10 + 0.5)) / 10.0;
        while (wallNow() < when) usleep(200);
        size_t n = epoch(bytes, sizeof bytes, when);
        for (int i = 0; i < vehicles; i++) { ssize_t w = write(masters[i], bytes, n); (void)w; }
        written += vehicles;
        next = when + 0.1;
    }
    // The last epoch of each is completed by the next: one more, untimed, then time to arrive.
    size_t n = epoch(bytes, sizeof bytes, next);
    for (int i = 0; i < vehicles; i++) { ssize_t w = write(masters[i], bytes, n); (void)w; }
    usleep(3000000);
    double elapsed = wallNow() - measureStart - 3;
    double cpu = -cpuStart;
    long peak = 0;
    for (int i = 0; i < vehicles; i++) { cpu += cpuSeconds(publishers[i]); long kB = peakKilobytes(publishers[i]); if (kB > 0) peak += kB; }
    double brokerCPU = cpuSeconds(broker) - brokerStart;
    for (int i = 0; i < vehicles; i++) kill(publishers[i], SIGTERM);
    for (int i = 0; i < vehicles; i++) waitpid(publishers[i], NULL, 0);
    mosquitto_loop_stop(subscriber, true);

    pthread_mutex_lock(&lock);
    long got = received, count = sampleCount < maxSamples ? sampleCount : maxSamples;
    pthread_mutex_unlock(&lock);
    // The extra epoch's TPVs are not among those written in the window.
    long timed = got > written ? written : got;
    qsort(latencies, count, sizeof(double), compareDoubles);
    double p50 = count ? latencies[count / 2] : 0, p99 = count ? latencies[(long)(count * 0.99)] : 0, max = count ? latencies[count - 1] : 0;
    printf("{\"vehicles\":%d,\"written\":%ld,\"received\":%ld,\"missed\":%ld,\"p50_ms\":%.1f,\"p99_ms\":%.1f,\"max_ms\":%.1f,"
           "\"publisher_cpu_per_vehicle\":%.4f,\"broker_cpu\":%.3f,\"publisher_peak_MB\":%.1f}\n",
           vehicles, written, got, written - timed, p50, p99, max, cpu / elapsed / vehicles, brokerCPU / elapsed,
           vehicles ? peak / 1024.0 / vehicles : 0);
    return 0;
}
