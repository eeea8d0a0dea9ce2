/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libactivity benchmark: activity_advance in ns per call (one thread with a sink, four threads
 * on one activity, reporting off) and begin/end pairs per second into a pipe. Prints one JSON
 * object on stdout. Run with `make bench` (a release build of the static library).
 */
#include <activity.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

typedef struct job {
    activity *a;
    long calls;
} job;

static void *advance_loop(void *argument)
{
    job *j = argument;
    for (long k = 0; k < j->calls; k++) activity_advance(j->a, 1);
    return NULL;
}

/** ns per activity_advance call with `threads` threads on one activity. */
static double advance_ns(activity *a, int threads, long calls_per_thread)
{
    pthread_t ids[16];
    job jobs[16];
    double start = now_seconds();
    for (int t = 0; t < threads; t++) {
        jobs[t] = (job){a, calls_per_thread};
        pthread_create(&ids[t], NULL, advance_loop, &jobs[t]);
    }
    for (int t = 0; t < threads; t++) pthread_join(ids[t], NULL);
    double elapsed = now_seconds() - start;
    /* Wall time per call per thread: what each caller pays. */
    return elapsed * 1e9 / (double)calls_per_thread;
}

static void *drain(void *argument)
{
    int fd = *(int *)argument;
    char buffer[1 << 16];
    while (read(fd, buffer, sizeof buffer) > 0) {
    }
    return NULL;
}

int main(void)
{
    int fds[2];
    if (pipe(fds) != 0) return 1;
    pthread_t reader;
    pthread_create(&reader, NULL, drain, &fds[0]);
    char spec[32];
    snprintf(spec, sizeof spec, "fd:%d", fds[1]);
    activity_set_sink(spec);

    const long calls = 20 * 1000 * 1000;
    activity *a = activity_begin(NULL, "bench", -1, NULL);
    advance_ns(a, 1, calls / 10); /* warm up */
    double one_thread = advance_ns(a, 1, calls);
    double four_threads = advance_ns(a, 4, calls / 4);
    activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);

    const long pairs = 200 * 1000;
    double start = now_seconds();
    for (long k = 0; k < pairs; k++) {
        activity *p = activity_begin(NULL, "pair", 1, NULL);
        activity_end(p, ACTIVITY_STATUS_SUCCESS, NULL);
    }
    double pairs_per_second = (double)pairs / (now_seconds() - start);

    activity_set_sink("none");
    activity *off = activity_begin(NULL, "off", -1, NULL);
    double disabled = advance_ns(off, 1, calls * 5);
    activity_end(off, ACTIVITY_STATUS_SUCCESS, NULL);

    close(fds[1]);
    pthread_join(reader, NULL);
    printf("{\"library\":\"libactivity %s\",\"advance_ns_1_thread\":%.2f,\"advance_ns_4_threads_one_activity\":%.2f,"
           "\"advance_ns_disabled\":%.2f,\"begin_end_pairs_per_second_pipe\":%.0f}\n",
           activity_version(), one_thread, four_threads, disabled, pairs_per_second);
    return 0;
}
