/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What every unit of libactivity shares: what differs between platforms, the mark of internal
 * functions, the longest line and the monotonic clock. Nothing here is exported.
 *
 * The units are layers. Each includes the private headers of the units below it only, and so
 * calls nothing above it; where a lower unit needs something of a higher one, the higher
 * registers a callback with it, once, in activity.c's set-up (Scripts/check-layers keeps this
 * true; Docs/architecture.md draws the graph):
 *
 *   activity.c     the public API and the handle; the set-up and fork handlers that reach every unit
 *   registry.h     live activities, their references, the flusher thread
 *   control.h      cancel lines from the consumer (read on the flusher's thread)
 *   sink.h         where lines go
 *   event.h, ids.h, diagnostics.h   lines, ids and messages: no calls into the library
 *   common.h       this file
 */
#ifndef ACTIVITY_COMMON_H
#define ACTIVITY_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "include/activity.h"

#define HIDDEN __attribute__((visibility("hidden")))

/** The longest line written, newline included: PIPE_BUF, so one write(2) on a pipe is atomic. */
#define LINE_MAX_BYTES 4096
/** The largest count: every integer up to it is exact in a double. */
#define MAX_COUNT 9007199254740992.0
/** The longest socket path a sockaddr_un holds, without its terminating NUL (107 on Linux). */
#define SOCKET_PATH_MAX (sizeof(((struct sockaddr_un *)0)->sun_path) - 1)

/** Milliseconds on the monotonic clock. */
static inline int64_t monotonic_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/*
 * What Linux and Darwin spell differently. Linux is built and tested; the Darwin paths are written
 * to compile and have never been built (Docs/architecture.md, "Platforms").
 */

#if defined(__linux__)
/** The send(2) flag that keeps a write to a closed socket from raising SIGPIPE. */
#define SEND_NO_SIGNAL MSG_NOSIGNAL
#else
/* Darwin has no MSG_NOSIGNAL: the sockets made here have SO_NOSIGPIPE (unix_socket). */
#define SEND_NO_SIGNAL 0
#endif

/**
 * A new unix stream socket, close-on-exec and non-blocking, that never raises SIGPIPE; -1 and
 * errno on failure. Darwin has no SOCK_CLOEXEC: the flag is set just after, so a child another
 * thread spawns in between may inherit the socket there.
 */
static inline int unix_socket(void)
{
#if defined(__linux__)
    return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
#else
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s >= 0) {
        int one = 1;
        fcntl(s, F_SETFD, FD_CLOEXEC);
        fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK);
        setsockopt(s, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
    }
    return s;
#endif
}

/** Takes the SIGPIPE pending for this thread, which blocks it (set holds it), if there is one. */
static inline void consume_pending_sigpipe(const sigset_t *set)
{
    sigset_t pending;
    sigemptyset(&pending);
    sigpending(&pending);
    if (sigismember(&pending, SIGPIPE) != 1) return;
#if defined(__linux__)
    struct timespec zero = {0, 0};
    while (sigtimedwait(set, NULL, &zero) < 0 && errno == EINTR) {
    }
#else
    /* Pending, so sigwait returns at once (Darwin has no sigtimedwait). */
    int signal_number;
    sigwait(set, &signal_number);
#endif
}

/**
 * A new open file description of the pipe fd, read-only with flags of its own (O_NONBLOCK), so the
 * caller's keeps its flags; -1 and errno on failure. Linux opens /proc/self/fd/N; Darwin has no
 * such path, so there it fails with ENOTSUP and an fd:N control pipe is not read.
 */
static inline int open_own_description(int fd, int flags)
{
#if defined(__linux__)
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    return open(path, O_RDONLY | O_CLOEXEC | flags);
#else
    (void)fd;
    (void)flags;
    errno = ENOTSUP;
    return -1;
#endif
}

#endif /* ACTIVITY_COMMON_H */
