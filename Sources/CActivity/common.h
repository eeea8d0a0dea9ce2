/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What every unit of libactivity shares: the platform check, the mark of internal functions, the
 * longest line and the monotonic clock. Nothing here is exported.
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

/* Linux only, for now: SOCK_CLOEXEC and SOCK_NONBLOCK on socket(2), MSG_NOSIGNAL, sigtimedwait(2)
 * and /proc/self/fd have no Darwin path yet (Docs/architecture.md, "Platforms"). */
#if !defined(__linux__)
#error "libactivity is not supported on this platform yet: it is built for Linux only"
#endif

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

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

#endif /* ACTIVITY_COMMON_H */
