// What the C benchmark harnesses share: NMEA framing, and a process's CPU time and peak
// memory from /proc. Header-only (each harness is one file, built with one cc line).
#ifndef NMEASTREAM_BENCHMARK_HARNESS_H
#define NMEASTREAM_BENCHMARK_HARNESS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

// `body` framed as a sentence: $, the body, *, its checksum, CR LF.
static void sentence(char *out, size_t size, const char *body) {
    unsigned char sum = 0;
    for (const char *p = body; *p; p++) sum ^= (unsigned char)*p;
    snprintf(out, size, "$%s*%02X\r\n", body, sum);
}

// The process's CPU time so far (user and system), seconds; 10 ms resolution.
static double cpuSeconds(pid_t pid) {
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *file = fopen(path, "r");
    if (!file) return -1;
    size_t n = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[n] = 0;
    char *p = strrchr(text, ')');
    unsigned long utime = 0, stime = 0;
    // After the command's closing parenthesis: state (3) ... utime (14), stime (15).
    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime);
    return (double)(utime + stime) / sysconf(_SC_CLK_TCK);
}

// The process's peak resident memory (VmHWM), kB.
static long peakKilobytes(pid_t pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *file = fopen(path, "r");
    long value = -1;
    while (file && fgets(line, sizeof line, file)) {
        if (strncmp(line, "VmHWM:", 6) == 0) value = atol(line + 6);
    }
    if (file) fclose(file);
    return value;
}

// For qsort over doubles.
static int compareDoubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
#endif
