/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Activity ids: a random 64-bit per-process prefix and a counter ("3f9c2a71d04be815.12"), unique
 * across processes and machines without coordination. A forked child draws a new prefix.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "ids.h"

static pthread_mutex_t ids_lock = PTHREAD_MUTEX_INITIALIZER;
static char prefix[17];
static pid_t prefix_pid; /* the process the prefix was drawn in; 0: not drawn yet */
static _Atomic uint64_t counter;

static uint64_t random64(void)
{
    uint64_t value = 0;
    ssize_t got;
#if defined(__linux__)
    do {
        got = getrandom(&value, sizeof value, GRND_NONBLOCK);
    } while (got < 0 && errno == EINTR);
    if (got == (ssize_t)sizeof value) return value;
#else
    if (getentropy(&value, sizeof value) == 0) return value; /* Darwin: <sys/random.h> has no getrandom */
#endif
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        got = read(fd, &value, sizeof value);
        close(fd);
        if (got == (ssize_t)sizeof value) return value;
    }
    /* No entropy source at all: mix what differs between processes. */
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    value = (uint64_t)now.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)now.tv_sec ^ ((uint64_t)getpid() << 32) ^
            (uint64_t)(uintptr_t)&value;
    value ^= value >> 31;
    value *= 0xBF58476D1CE4E5B9ull;
    return value ^ (value >> 29);
}

void ids_next(char buffer[ID_CAPACITY])
{
    uint64_t number = atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed) + 1;
    pid_t pid = getpid();
    pthread_mutex_lock(&ids_lock);
    if (prefix_pid != pid) {
        snprintf(prefix, sizeof prefix, "%016llx", (unsigned long long)random64());
        prefix_pid = pid;
    }
    snprintf(buffer, ID_CAPACITY, "%s.%llu", prefix, (unsigned long long)number);
    pthread_mutex_unlock(&ids_lock);
}

void ids_after_fork_in_child(void)
{
    /* The lock may have been held by a thread that does not exist here. */
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    memcpy(&ids_lock, &fresh, sizeof fresh);
    prefix_pid = 0;
}

bool ids_is_valid(const char *s)
{
    size_t length = 0;
    for (const char *p = s; *p; p++, length++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                  c == '_' || c == ':' || c == '@' || c == '/' || c == '+' || c == '-';
        if (!ok || length >= 128) return false;
    }
    return length >= 1;
}
