/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libactivity: report the progress of long-running work as swift-activity
 * protocol v1 JSON lines, from C, C++, Python (ctypes), Rust, Go or anything
 * else with a C FFI.
 *
 * Where events go
 * ---------------
 * The sink is read from the environment variable ACTIVITY_SINK the first time
 * an event is reported, or set with activity_set_sink():
 *
 *   unix:PATH   connect to a listening Unix stream socket; every process makes
 *               its own connection on first use (a forked child makes a new one)
 *   fd:N        write to the already open file descriptor N, when it is a pipe,
 *               a socket, a terminal or a file opened for appending
 *               (tool 3>>events.jsonl); anything else may be a file the
 *               program opened for its own data after N was closed, so it
 *               turns reporting off with one line on stderr
 *   file:PATH   append to PATH (created with mode 0666 & ~umask)
 *   stdout      the same as fd:1
 *   stderr      the same as fd:2
 *   none        report nothing
 *
 * Unset (or empty), every function does nothing, cheaply, like sd_notify()
 * without NOTIFY_SOCKET. A malformed value turns reporting off and prints one
 * line on stderr.
 *
 * ACTIVITY_PARENT names the activity that started this process: activities
 * begun without a parent nest under it, so a tree of processes shows as one
 * tree. ACTIVITY_TIMEOUT_MS (0 to 60000, default 1000) bounds how long
 * activity_begin(), activity_end() and activity_log() wait for a stalled reader.
 *
 * Cancellation
 * ------------
 * An activity begun with activity_begin_cancellable() may be cancelled by the
 * person watching (Esc in `activity run --mode overlay`, an overlay's Cancel
 * button). The consumer sends a cancel line back; the library reads it on its
 * background thread, from the unix: sink's own connection, or from
 * ACTIVITY_CONTROL (fd:N, a descriptor open for reading, or unix:PATH) for
 * other sinks. Without either there is no control channel and nothing is
 * ever cancelled. A cancel is a request: check activity_cancel_requested() in
 * the work's loop, or set a handler with activity_set_cancel_handler(), and
 * end the activity with ACTIVITY_STATUS_CANCELLED when the work stops. A
 * cancel for an activity that is not cancellable, not open, or not this
 * process's own is ignored; a second cancel for one changes nothing. A forked
 * child never reads its parent's control channel.
 *
 * Guarantees
 * ----------
 * - Every function is thread-safe. A handle may be used from several threads
 *   at once until activity_end() is called on it; activity_end() must be the
 *   handle's last use.
 * - Every function accepts NULL handles and NULL strings as harmless no-ops.
 * - Functions return 0 on success, also when reporting is off or the reader has
 *   gone away, and a negative errno value on bad arguments (-EINVAL: NaN,
 *   infinite or negative numbers, unknown enum values; nothing is written).
 * - Each event is one line of at most 4096 bytes written with one write(2), so
 *   lines from many threads and processes sharing a pipe never tear. Long text
 *   is cut on a UTF-8 boundary and ends in "…"; invalid UTF-8 becomes U+FFFD.
 * - activity_advance() and the other progress setters only update atomics:
 *   a background thread, started with the first activity, writes the latest
 *   values about every 100 ms; the end event carries the final values.
 * - A reader never hurts the producer: no SIGPIPE, no error to handle when it
 *   exits (reporting turns itself off), no blocking of the progress setters
 *   when it stalls (begin, end and log give up after ACTIVITY_TIMEOUT_MS), and
 *   the caller's file-descriptor flags and signal dispositions are never
 *   changed.
 * - After fork(), handles inherited from the parent are inert in the child
 *   (only activity_end() to free them is useful); the child's own activities
 *   get fresh ids and, with a unix: sink, the child's own connection.
 *
 * Example
 * -------
 *   activity *a = activity_begin(NULL, "Downloading", 12, "files");
 *   for (int i = 0; i < 12; i++) {
 *       fetch(i);
 *       activity_advance(a, 1);
 *   }
 *   activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
 *
 * Build with: cc app.c $(pkg-config --cflags --libs activity)
 */
#ifndef ACTIVITY_H
#define ACTIVITY_H

#ifdef __cplusplus
extern "C" {
#endif

/** The library's version, at compile time. activity_version() gives it at run time. */
#define ACTIVITY_VERSION_MAJOR 0
#define ACTIVITY_VERSION_MINOR 2
#define ACTIVITY_VERSION_PATCH 0
#define ACTIVITY_VERSION_STRING "0.2.0"
/** The protocol major version the library writes (the "v" field of every line). */
#define ACTIVITY_PROTOCOL_VERSION 1

#if defined(_WIN32)
#define ACTIVITY_API
#elif defined(__GNUC__) || defined(__clang__)
#define ACTIVITY_API __attribute__((visibility("default")))
#else
#define ACTIVITY_API
#endif

/*
 * The names of version 0.1 (ACTIVITY_SUCCESS, ACTIVITY_ERROR, ...) did not
 * say which enum they belong to, and ACTIVITY_ERROR (a level) and
 * ACTIVITY_SKIPPED (a status) are both 3: activity_end(a, ACTIVITY_ERROR, m)
 * compiled and reported "skipped". They remain for one more version, marked
 * deprecated where the compiler can say so (gcc 6 and later, clang: a
 * -Wdeprecated-declarations warning at each use). Define
 * ACTIVITY_NO_DEPRECATED_NAMES to leave them out altogether.
 */
#if !defined(ACTIVITY_NO_DEPRECATED_NAMES)
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 6)
#define ACTIVITY_DEPRECATED_NAME(replacement) __attribute__((deprecated("use " #replacement)))
#else
#define ACTIVITY_DEPRECATED_NAME(replacement)
#endif
#endif

/** How an activity ended: the status argument of activity_end(). */
typedef enum activity_status {
    ACTIVITY_STATUS_SUCCESS = 0,
    ACTIVITY_STATUS_FAILURE = 1,
    ACTIVITY_STATUS_CANCELLED = 2,
    ACTIVITY_STATUS_SKIPPED = 3
#if !defined(ACTIVITY_NO_DEPRECATED_NAMES)
    ,
    ACTIVITY_SUCCESS ACTIVITY_DEPRECATED_NAME(ACTIVITY_STATUS_SUCCESS) = ACTIVITY_STATUS_SUCCESS,
    ACTIVITY_FAILURE ACTIVITY_DEPRECATED_NAME(ACTIVITY_STATUS_FAILURE) = ACTIVITY_STATUS_FAILURE,
    ACTIVITY_CANCELLED ACTIVITY_DEPRECATED_NAME(ACTIVITY_STATUS_CANCELLED) = ACTIVITY_STATUS_CANCELLED,
    ACTIVITY_SKIPPED ACTIVITY_DEPRECATED_NAME(ACTIVITY_STATUS_SKIPPED) = ACTIVITY_STATUS_SKIPPED
#endif
} activity_status;

/** The severity of a log message: the level argument of activity_log(). */
typedef enum activity_level {
    ACTIVITY_LEVEL_DEBUG = 0,
    ACTIVITY_LEVEL_INFO = 1,
    ACTIVITY_LEVEL_WARNING = 2,
    ACTIVITY_LEVEL_ERROR = 3
#if !defined(ACTIVITY_NO_DEPRECATED_NAMES)
    ,
    ACTIVITY_DEBUG ACTIVITY_DEPRECATED_NAME(ACTIVITY_LEVEL_DEBUG) = ACTIVITY_LEVEL_DEBUG,
    ACTIVITY_INFO ACTIVITY_DEPRECATED_NAME(ACTIVITY_LEVEL_INFO) = ACTIVITY_LEVEL_INFO,
    ACTIVITY_WARNING ACTIVITY_DEPRECATED_NAME(ACTIVITY_LEVEL_WARNING) = ACTIVITY_LEVEL_WARNING,
    ACTIVITY_ERROR ACTIVITY_DEPRECATED_NAME(ACTIVITY_LEVEL_ERROR) = ACTIVITY_LEVEL_ERROR
#endif
} activity_level;

/** One unit of work being reported. Opaque: use it only through these functions. */
typedef struct activity activity;

/**
 * The library's version at run time, "MAJOR.MINOR.PATCH".
 *
 * Returns a static string; never NULL.
 */
ACTIVITY_API const char *activity_version(void);

/**
 * Begins an activity and writes its "begin" event.
 *
 * parent: the enclosing activity, or NULL for a top-level activity (nested
 *         under ACTIVITY_PARENT when that is set to a valid id).
 * title:  what is being done ("Downloading"); NULL is taken as "".
 * total:  the amount of work, in units; a negative or non-finite total means
 *         indeterminate. Values above 2^53 are clamped.
 * unit:   the unit of total and completed ("bytes" is formatted by renderers
 *         as KiB/MiB); NULL means items.
 *
 * Returns a handle to pass to the other functions and finally to
 * activity_end(), which frees it. The handle is usable even when reporting is
 * off (its calls then do nothing), so callers never branch. Returns NULL only
 * when out of memory, and NULL is accepted everywhere as a no-op.
 *
 * May wait up to ACTIVITY_TIMEOUT_MS for a stalled reader. Thread-safe.
 */
ACTIVITY_API activity *activity_begin(activity *parent, const char *title, double total, const char *unit);

/**
 * Begins an activity, as activity_begin() does, that the person watching may
 * cancel: its "begin" event says "cancellable": true, and a consumer may send
 * a cancel for it (see Cancellation above). The work learns of it through
 * activity_cancel_requested() or activity_set_cancel_handler().
 *
 * Returns a handle, as activity_begin() does. Thread-safe.
 */
ACTIVITY_API activity *activity_begin_cancellable(activity *parent, const char *title, double total,
                                                  const char *unit);

/**
 * Begins an activity, as activity_begin() does, under the activity whose id
 * is parent_id: one begun elsewhere, in another process or another library
 * ("3f9c2a71d04be815.12", as activity_id() gives it). NULL or "" nests it as
 * activity_begin(NULL, ...) does (under ACTIVITY_PARENT when that is set); a
 * parent_id that is not an id (1 to 128 bytes of [A-Za-z0-9._:@/+-]) is
 * treated as NULL, since a malformed parent would make every line of the
 * activity an error. cancellable: nonzero begins it as
 * activity_begin_cancellable() does.
 *
 * Returns a handle, as activity_begin() does. Thread-safe.
 */
ACTIVITY_API activity *activity_begin_under(const char *parent_id, const char *title, double total,
                                            const char *unit, int cancellable);

/**
 * Whether a consumer has asked to cancel the activity: 1 once a cancel has
 * arrived for it, else 0 (also for NULL, for an activity that is not
 * cancellable, and while reporting is off). One relaxed atomic load: cheap
 * enough for every turn of a loop.
 *
 *   while (more_work() && !activity_cancel_requested(a)) step(a);
 *   activity_end(a, activity_cancel_requested(a) ? ACTIVITY_STATUS_CANCELLED : ACTIVITY_STATUS_SUCCESS, NULL);
 */
ACTIVITY_API int activity_cancel_requested(const activity *a);

/** Called when a consumer asks to cancel the activity a; context is what was given with it. */
typedef void (*activity_cancel_handler)(activity *a, void *context);

/**
 * Sets the function called, once, when a consumer asks to cancel a (NULL
 * removes it). It is called on the library's background thread, not the
 * caller's: it must be quick, must not block, and must not fork(); it may set
 * a flag, write to a pipe, signal a condition variable, or call the functions
 * of this library on a, activity_end() included (a is then freed when the
 * handler returns: do not use it afterwards). Once activity_end() has returned
 * on another thread, the handler is never called for a again and is not
 * running, so context may be freed then.
 *
 * A cancel that arrived before the handler was set does not call it: check
 * activity_cancel_requested() after setting it.
 *
 * Returns 0; -EINVAL when a is not cancellable (begun with activity_begin()).
 * Thread-safe.
 */
ACTIVITY_API int activity_set_cancel_handler(activity *a, activity_cancel_handler handler, void *context);

/**
 * Adds delta units to the activity's completed count. The hot path: a few
 * nanoseconds, no lock, no system call; the value is written by the
 * background thread within about 100 ms. The count stops at 2^53 (the largest
 * count the protocol allows), however often and by however much it is
 * advanced: it never wraps around.
 *
 * Returns 0, or -EINVAL when delta is negative, NaN or infinite (nothing
 * changes). Thread-safe; any number of threads may advance one activity.
 */
ACTIVITY_API int activity_advance(activity *a, double delta);

/**
 * Sets the activity's completed count (an absolute value, not an increment).
 * It may exceed the total. Values above 2^53 are clamped.
 *
 * Returns 0, or -EINVAL when completed is negative, NaN or infinite.
 * Thread-safe; never blocks.
 */
ACTIVITY_API int activity_set_completed(activity *a, double completed);

/**
 * Sets the activity's total. A negative total makes it indeterminate; totals
 * may go down as well as up. Values above 2^53 are clamped.
 *
 * Returns 0, or -EINVAL when total is NaN or infinite. Thread-safe; never
 * blocks.
 */
ACTIVITY_API int activity_set_total(activity *a, double total);

/**
 * Sets the activity's status message ("resolving host"). The string is copied;
 * NULL is a no-op. Coalesced with progress: only the latest message set within
 * about 100 ms is written.
 *
 * Returns 0, or -ENOMEM. Thread-safe; never waits for the reader.
 */
ACTIVITY_API int activity_set_message(activity *a, const char *message);

/**
 * Sets the activity's title ("Downloading assets.tar.zst"), as it was given
 * to activity_begin(). The string is copied; NULL is a no-op. Coalesced with
 * progress, as activity_set_message() is: only the latest title set within
 * about 100 ms is written, and one not yet written goes out before the end.
 *
 * Returns 0, or -ENOMEM. Thread-safe; never waits for the reader.
 */
ACTIVITY_API int activity_set_title(activity *a, const char *title);

/**
 * Writes a log message, attached to the activity a, or to none when a is NULL.
 * A NULL message is a no-op.
 *
 * Returns 0, or -EINVAL for an unknown level. Never dropped while the reader
 * is alive; may wait up to ACTIVITY_TIMEOUT_MS for a stalled reader.
 * Thread-safe.
 */
ACTIVITY_API int activity_log(activity *a, activity_level level, const char *message);

/**
 * Ends the activity and frees the handle: writes its "end" event, which
 * carries the final completed count and total, so the latest progress always
 * reaches the reader with the end. message (may be NULL) says how it went;
 * for ACTIVITY_STATUS_FAILURE it is written as the "error" field, otherwise as the
 * "message" field. A message set with activity_set_message() and not yet
 * written goes first, in a "progress" event of its own.
 *
 * Returns 0, or -EINVAL for an unknown status; then nothing is written and the
 * handle stays valid. The handle must not be used after a 0 return, by any
 * thread. May wait up to ACTIVITY_TIMEOUT_MS for a stalled reader.
 */
ACTIVITY_API int activity_end(activity *a, activity_status status, const char *message);

/**
 * The activity's id, unique across processes and machines
 * ("3f9c2a71d04be815.12"): a random per-process prefix of 64 bits and a
 * counter. Pass it to a child process as ACTIVITY_PARENT to nest the child's
 * activities under this one.
 *
 * Returns a string owned by the handle, valid until activity_end(); "" for a
 * handle begun while reporting was off; NULL for a NULL handle.
 */
ACTIVITY_API const char *activity_id(const activity *a);

/**
 * Replaces the sink, overriding ACTIVITY_SINK. spec has the syntax of
 * ACTIVITY_SINK ("unix:/run/x.sock", "fd:3", "file:/tmp/log.jsonl", "stdout",
 * "stderr", "none"); the connection or file is opened on first use, but the
 * descriptor of "fd:N" is checked at once (see ACTIVITY_SINK above: a
 * descriptor that is not a stream turns reporting off, with one line on
 * stderr). Activities begun under the previous sink become inert. NULL is a
 * no-op.
 *
 * Returns 0, or -EINVAL for a malformed spec (then the sink is unchanged and
 * nothing is printed). Thread-safe.
 */
ACTIVITY_API int activity_set_sink(const char *spec);

/**
 * Writes the latest progress of every live activity now, waiting at most
 * timeout_ms for a stalled reader (negative: ACTIVITY_TIMEOUT_MS). Call it
 * before exiting when activities are still open, or before handing the sink
 * to someone else.
 *
 * Returns 0, also when reporting is off or the reader is gone, or -ETIMEDOUT
 * when some progress could not be written in time. Thread-safe.
 */
ACTIVITY_API int activity_flush(int timeout_ms);

/**
 * A static English description of a return value of this library (0 or a
 * negative errno value). Never NULL.
 */
ACTIVITY_API const char *activity_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif /* ACTIVITY_H */
