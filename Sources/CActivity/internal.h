/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libactivity internals, shared between its source files. Nothing here is exported.
 *
 * The units are layers; each calls only those below it, and where a lower one needs something of
 * a higher one, the higher registers a callback:
 *
 *   activity.c     the public API, and the set-up and fork handlers that reach every unit
 *   registry.c     live activities, their references, the flusher thread
 *   control.c      cancel lines from the consumer (read on the flusher's thread)
 *   sink.c         where lines go
 *   event.c, ids.c, diagnostics.c   lines, ids and messages: no calls into the library
 */
#ifndef ACTIVITY_INTERNAL_H
#define ACTIVITY_INTERNAL_H

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

#include "include/activity.h"

#define HIDDEN __attribute__((visibility("hidden")))

/** The longest line written, newline included: PIPE_BUF, so one write(2) on a pipe is atomic. */
#define LINE_MAX_BYTES 4096
/** The largest count: every integer up to it is exact in a double. */
#define MAX_COUNT 9007199254740992.0
/** Room for an id: 16 hex digits, a dot, 20 decimal digits and a NUL. */
#define ID_CAPACITY 40
/** How often the flusher writes coalesced progress, in milliseconds. */
#define FLUSH_INTERVAL_MS 100

/* ---- activity.c: the handle --------------------------------------------------------------- */

struct activity {
    /* The hot path: completed = whole + fraction, read clamped to 2^53. Integral deltas below
       2^32 use one fetch_add on whole (saturating at 2^53); other deltas go into fraction. */
    _Atomic uint64_t whole;
    _Atomic uint64_t fraction_bits; /* a double */
    _Atomic uint64_t total_bits;    /* a double; negative means indeterminate */
    bool enabled;                   /* false: every call is a no-op (reporting was off at begin) */
    uint64_t epoch;                 /* the sink epoch it was begun in; another epoch makes it inert */
    pid_t pid;                      /* the process that began it; in another one it is inert */
    _Atomic int refs;               /* the caller's and the registry's, plus the flusher's while it writes */

    pthread_mutex_t message_lock;   /* guards message and title; never held during I/O */
    char *message;                  /* the latest message not written yet, or NULL */
    char *title;                    /* the latest title not written yet, or NULL */

    bool cancellable;               /* begun with activity_begin_cancellable() */
    _Atomic bool cancel_requested;  /* a consumer asked to cancel it (control.c) */
    /* Guarded by control.c's dispatch lock: */
    activity_cancel_handler cancel_handler;
    void *cancel_context;
    bool cancel_closed;             /* ending: the handler is never called again */

    pthread_mutex_t lock;           /* guards what follows, and serializes this activity's lines */
    bool ended;
    double sent_completed;          /* the values the stream has seen */
    double sent_total;

    struct activity *prev, *next;   /* the registry, guarded by its own lock */
    char id[ID_CAPACITY];
};

HIDDEN double activity_completed_value(activity *a);
HIDDEN double activity_total_value(activity *a);
/** Writes the progress not written yet; a->lock held. Returns false when it could not be written. */
HIDDEN bool activity_emit_progress_locked(activity *a, int wait_ms, bool may_block_on_sink);

/* ---- registry.c: live activities, their references, and the flusher thread ---------------- */

/** Writes an activity's pending progress for the flusher; a->lock held (activity.c's). */
typedef bool (*registry_writer)(activity *a, int wait_ms, bool may_block_on_sink);
/** Set once, before the first activity. */
HIDDEN void registry_set_writer(registry_writer writer);
/** Drops one reference; the last frees the handle. */
HIDDEN void registry_release(activity *a);
/** Frees a handle whatever its references: one inherited from the parent process. */
HIDDEN void registry_free(activity *a);
/** The live activity with this id, with a reference the caller releases, or NULL. */
HIDDEN activity *registry_find(const char *id);

HIDDEN void registry_add(activity *a);
HIDDEN void registry_remove(activity *a);
/** Writes pending progress of every live activity; returns false when some could not be written. */
HIDDEN bool registry_flush(int wait_ms, bool may_block_on_sink);
/** pthread_atfork handlers: no flush is under way at fork(); the child starts with an empty registry. */
HIDDEN void registry_before_fork(void);
HIDDEN void registry_after_fork_in_parent(void);
HIDDEN void registry_after_fork_in_child(void);

/* ---- sink.c: where lines go ---------------------------------------------------------------- */

/** The result of writing one line. */
typedef enum sink_result {
    SINK_WRITTEN,   /* the line is in the stream (possibly still completing after a short write) */
    SINK_DROPPED,   /* the reader did not take it in time: nothing of it was written */
    SINK_OFF,       /* reporting is off, or the reader has gone away */
    SINK_BUSY,      /* another thread is writing (only with may_block == false) */
} sink_result;

/** Whether events are reported at all; reads ACTIVITY_SINK on first use. Cheap after that. */
HIDDEN bool sink_enabled(void);
/** The current sink epoch: it changes with activity_set_sink() and in a forked child. */
HIDDEN uint64_t sink_epoch(void);
/**
 * Writes one line (newline included, at most LINE_MAX_BYTES) with one write(2), waiting at most
 * wait_ms for a stalled reader. A non-zero epoch that is no longer current writes nothing.
 * With may_block false, gives up at once when another thread is writing.
 */
HIDDEN sink_result sink_write(const char *line, size_t length, int wait_ms, bool may_block, uint64_t epoch);
/** Completes a line cut short by a full socket buffer; false when still incomplete. */
HIDDEN bool sink_drain(int wait_ms, bool may_block);
/** The configured wait for a stalled reader, in milliseconds. */
HIDDEN int sink_timeout_ms(void);
/** Reads ACTIVITY_TIMEOUT_MS and ACTIVITY_PARENT (once; ACTIVITY_SINK is read at first use). */
HIDDEN void sink_read_environment(void);
/** The flusher thread blocks SIGPIPE for good: writes from it need not. */
HIDDEN void sink_thread_blocks_sigpipe(void);
HIDDEN void sink_after_fork_in_child(void);
/** Parses a sink spec; 0 or -EINVAL. Exposed for activity_set_sink(). */
HIDDEN int sink_set(const char *spec);
/** The valid ACTIVITY_PARENT of this process, or NULL. */
HIDDEN const char *sink_parent_id(void);

/** The descriptor of the unix: connection of the current epoch, duplicated for reading control
    lines; -1 when the sink is unix: but not connected by this process (yet), -2 when it is not
    unix: at all (ACTIVITY_CONTROL is then the channel). */
HIDDEN int sink_control_dup(uint64_t *epoch);

/* ---- control.c: the control direction ------------------------------------------------------ */

/** What the control direction needs of the registry above it. */
typedef struct control_hooks {
    activity *(*find)(const char *id); /* the live activity with this id, with a reference */
    void (*release)(activity *a);
    void (*set_busy)(bool busy);       /* fork waits while busy */
} control_hooks;

/**
 * Waits up to timeout_ms for control lines and acts on them. Called by the flusher between its
 * flushes, with the registry unlocked; marks itself busy while it reads (fork waits).
 */
HIDDEN void control_wait(int timeout_ms, const control_hooks *hooks);
/** Reads ACTIVITY_CONTROL (fd:N, unix:PATH or none) and says what is wrong with it. */
HIDDEN void control_configure_from_environment(void);
/** activity_set_cancel_handler(): a no-op once the activity is ending. */
HIDDEN void control_set_handler(activity *a, activity_cancel_handler handler, void *context);
/** activity_end(): the handler is never called again once this returns (nor running elsewhere). */
HIDDEN void control_close(activity *a);
HIDDEN void control_after_fork_in_child(void);

/* ---- ids.c -------------------------------------------------------------------------------- */

/** Writes a fresh id into buffer (ID_CAPACITY bytes). */
HIDDEN void ids_next(char buffer[ID_CAPACITY]);
HIDDEN void ids_after_fork_in_child(void);
/** Whether s is a valid protocol id: 1 to 128 bytes of [A-Za-z0-9._:@/+-]. */
HIDDEN bool ids_is_valid(const char *s);

/* ---- event.c: building lines with json-c -------------------------------------------------- */

/** The fields of one event; NULL strings and negative numbers are left out. */
typedef struct event_fields {
    const char *type;      /* "begin", "progress", "log", "end" */
    const char *id;
    const char *parent;
    const char *title;
    const char *unit;
    const char *message;
    const char *error;
    const char *level;     /* log */
    const char *status;    /* end */
    double completed;      /* < 0: absent */
    double total;          /* < 0: absent, unless total_null */
    bool total_null;       /* progress, end: "total": null (indeterminate) */
    bool cancellable;      /* begin: "cancellable": true */
} event_fields;

/** An empty set of fields: every number absent. */
HIDDEN event_fields event_fields_empty(const char *type);
/**
 * Builds the line for an event into out (LINE_MAX_BYTES + 1 bytes), newline included, and
 * returns its length, or 0 when out of memory.
 */
HIDDEN size_t event_build(const event_fields *fields, char *out);
/** The shortest text that reads back as value, as "%.17g" would but without needless digits. */
HIDDEN void event_format_double(double value, char out[32]);
/** A copy of s with invalid UTF-8 replaced by U+FFFD and cut to at most max_bytes (on a boundary). */
HIDDEN char *event_sanitize_utf8(const char *s, size_t max_bytes);

/* ---- diagnostics.c: the library's own messages ------------------------------------------- */

/** Writes a message to stderr with one write(2), without stdio. */
HIDDEN __attribute__((format(printf, 1, 2))) void complain(const char *format, ...);
/**
 * The one escaping function for what libactivity's messages quote from outside (a variable's
 * value, a path): `text` into `out` with controls, bidirectional controls and invisible
 * characters written as visible escapes (`\n`, `\x1b`, `\u{202e}`), as `activity` writes them,
 * so that the person sees what the value is and the terminal obeys none of it. Bytes that are not
 * UTF-8 are written `\xff`. At most 200 bytes of `text` are quoted, then `…`. Returns `out`.
 */
HIDDEN const char *visible(const char *text, char *out, size_t size);
/** Room for visible() of 200 bytes: each byte may take 6, and each 3-byte character 9. */
enum { VISIBLE_SIZE = 1300 };
/** The longest socket path a sockaddr_un holds, without its terminating NUL (107 on Linux). */
#define SOCKET_PATH_MAX (sizeof(((struct sockaddr_un *)0)->sun_path) - 1)

/* ---- small shared helpers ----------------------------------------------------------------- */

static inline uint64_t bits_of(double d)
{
    uint64_t u;
    __builtin_memcpy(&u, &d, sizeof u);
    return u;
}

static inline double double_of(uint64_t u)
{
    double d;
    __builtin_memcpy(&d, &u, sizeof d);
    return d;
}

/** Milliseconds on the monotonic clock. */
HIDDEN int64_t monotonic_ms(void);

#endif /* ACTIVITY_INTERNAL_H */
