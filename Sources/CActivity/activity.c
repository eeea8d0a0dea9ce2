/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The public API: handles, the progress hot path, and the begin, log and end events. The top
 * layer: the units below it know an activity by the part of the handle that is theirs (the
 * registry's entry, the control direction's target), and reach this file only through the
 * callbacks get_ready() registers with them.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"
#include "event.h"
#include "ids.h"
#include "registry.h"
#include "sink.h"

struct activity {
    /* The hot path: completed = whole + fraction, read clamped to 2^53. Integral deltas below
       2^32 use one fetch_add on whole (saturating at 2^53); other deltas go into fraction. */
    _Atomic uint64_t whole;
    _Atomic uint64_t fraction_bits; /* a double */
    _Atomic uint64_t total_bits;    /* a double; negative means indeterminate */
    bool enabled;                   /* false: every call is a no-op (reporting was off at begin) */
    pid_t pid;                      /* the process that began it; in another one it is inert */

    pthread_mutex_t message_lock;   /* guards message and title; never held during I/O */
    char *message;                  /* the latest message not written yet, or NULL */
    char *title;                    /* the latest title not written yet, or NULL */

    pthread_mutex_t lock;           /* guards what follows, and serializes this activity's lines */
    bool ended;
    double sent_completed;          /* the values the stream has seen */
    double sent_total;

    registry_entry entry;           /* its id, sink epoch and references */
    control_target cancel;          /* whether it is cancellable, and its handler */
};

/** The handle an entry or a cancel target is part of. */
#define HANDLE_OF(pointer, member) ((activity *)((char *)(pointer) - offsetof(activity, member)))

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

/** The handle activity_begin() returns while reporting is off: every call on it does nothing. */
static activity disabled_handle = {
    .enabled = false,
    .message_lock = PTHREAD_MUTEX_INITIALIZER,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

static const char *const status_names[] = {"success", "failure", "cancelled", "skipped"};
static const char *const level_names[] = {"debug", "info", "warning", "error"};

const char *activity_version(void)
{
    return ACTIVITY_VERSION_STRING;
}

const char *activity_strerror(int code)
{
    switch (code) {
    case 0: return "success";
    case -EINVAL: return "invalid argument: a negative, NaN or infinite number, an unknown enum value, or a malformed sink";
    case -ENOMEM: return "out of memory";
    case -ETIMEDOUT: return "the reader did not take the events in time";
    default: return code < 0 ? "unknown error" : "not an error code";
    }
}

static bool is_valid_count(double value)
{
    return value >= 0 && value <= DBL_MAX; /* false for NaN and infinity too */
}

static double clamp_count(double value)
{
    return value > MAX_COUNT ? MAX_COUNT : value;
}

static pthread_once_t ready_once = PTHREAD_ONCE_INIT;

static void after_fork_in_child(void)
{
    sink_after_fork_in_child();
    ids_after_fork_in_child();
    registry_after_fork_in_child();
    control_after_fork_in_child();
}

static bool write_pending(registry_entry *entry, int wait_ms, bool may_block);
static void destroy_entry(registry_entry *entry);

/** A live cancel target by id, for the control direction: the registry's entry, with its reference. */
static control_target *find_target(const char *id)
{
    registry_entry *entry = registry_find(id);
    return entry ? &HANDLE_OF(entry, entry)->cancel : NULL;
}

static void release_target(control_target *target)
{
    registry_release(&HANDLE_OF(target, cancel)->entry);
}

/** The library's set-up, once, before its first event: the environment, the callbacks the units
    below call instead of calling up, and the fork handlers, which reach every unit from here. */
static void get_ready(void)
{
    sink_read_environment();
    control_configure_from_environment();
    static const registry_callbacks registry_calls = {write_pending, destroy_entry};
    registry_set_callbacks(&registry_calls);
    static const control_hooks control_calls = {find_target, release_target, registry_set_busy};
    control_set_hooks(&control_calls);
    pthread_atfork(registry_before_fork, registry_after_fork_in_parent, after_fork_in_child);
}

/** Whether events are reported, with the library set up. */
static bool reporting(void)
{
    pthread_once(&ready_once, get_ready);
    return sink_enabled();
}

static double completed_value(activity *a)
{
    double whole = (double)atomic_load_explicit(&a->whole, memory_order_relaxed);
    double fraction = double_of(atomic_load_explicit(&a->fraction_bits, memory_order_relaxed));
    return clamp_count(whole + fraction);
}

static double total_value(activity *a)
{
    return double_of(atomic_load_explicit(&a->total_bits, memory_order_relaxed));
}

/** Writes a built line for a, waiting as begin, end and log do. */
static sink_result write_event(const event_fields *fields, uint64_t epoch, int wait_ms, bool may_block)
{
    char line[LINE_MAX_BYTES + 1];
    size_t length = event_build(fields, line);
    if (length == 0) return SINK_DROPPED;
    return sink_write(line, length, wait_ms, may_block, epoch);
}

static activity *begin(const char *parent_id, const char *title, double total, const char *unit, bool cancellable)
{
    if (!reporting()) return &disabled_handle;
    activity *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    pthread_mutex_init(&a->lock, NULL);
    pthread_mutex_init(&a->message_lock, NULL);
    registry_entry_init(&a->entry);
    control_target_init(&a->cancel, a, cancellable);
    a->pid = getpid();
    double initial_total = total >= 0 && total <= DBL_MAX ? clamp_count(total) : -1;
    atomic_init(&a->total_bits, bits_of(initial_total));
    atomic_init(&a->fraction_bits, bits_of(0.0));
    a->sent_total = initial_total;

    event_fields f = event_fields_empty("begin");
    f.id = a->entry.id;
    f.parent = parent_id && parent_id[0] ? parent_id : sink_parent_id();
    f.title = title ? title : "";
    f.total = initial_total;
    f.unit = unit;
    f.cancellable = cancellable;
    /* In the registry before its begin is written: the consumer may answer the begin with a
       cancel at once, and the flusher, which reads that line, must find the activity. */
    registry_add(&a->entry);
    a->enabled = write_event(&f, a->entry.epoch, sink_timeout_ms(), true) == SINK_WRITTEN;
    /* A begin the reader never got would make every later line of it an error: stay silent. */
    if (!a->enabled) registry_remove(&a->entry);
    return a;
}

activity *activity_begin(activity *parent, const char *title, double total, const char *unit)
{
    return begin(parent ? parent->entry.id : NULL, title, total, unit, false);
}

activity *activity_begin_cancellable(activity *parent, const char *title, double total, const char *unit)
{
    return begin(parent ? parent->entry.id : NULL, title, total, unit, true);
}

activity *activity_begin_under(const char *parent_id, const char *title, double total, const char *unit,
                               int cancellable)
{
    /* An id that is not one would make every line of the activity an error: top-level instead. */
    if (parent_id && !ids_is_valid(parent_id)) parent_id = NULL;
    return begin(parent_id, title, total, unit, cancellable != 0);
}

/** The whole part saturates here, so that no number of advances can wrap it around. */
#define MAX_WHOLE ((uint64_t)1 << 53)
/** Integral deltas below this take the one fetch_add: far from wrapping 2^64 whatever the threads. */
#define FAST_DELTA_LIMIT 4294967296.0

int activity_advance(activity *a, double delta)
{
    if (__builtin_expect(a == NULL, 0)) return 0;
    if (__builtin_expect(!is_valid_count(delta), 0)) return -EINVAL;
    if (!a->enabled) return 0;
    if (__builtin_expect(delta < FAST_DELTA_LIMIT && delta == (double)(int64_t)delta, 1)) {
        uint64_t step = (uint64_t)(int64_t)delta;
        uint64_t now = atomic_fetch_add_explicit(&a->whole, step, memory_order_relaxed) + step;
        /* Past 2^53, back to 2^53 (the reader sees it clamped meanwhile). Only while the value is
           still the one this call made too big: a concurrent activity_set_completed() wins. */
        while (__builtin_expect(now > MAX_WHOLE, 0) &&
               !atomic_compare_exchange_weak_explicit(&a->whole, &now, MAX_WHOLE, memory_order_relaxed,
                                                      memory_order_relaxed)) {
        }
        return 0;
    }
    uint64_t old = atomic_load_explicit(&a->fraction_bits, memory_order_relaxed), next;
    do {
        next = bits_of(clamp_count(double_of(old) + delta));
    } while (!atomic_compare_exchange_weak_explicit(&a->fraction_bits, &old, next, memory_order_relaxed,
                                                    memory_order_relaxed));
    return 0;
}

int activity_set_completed(activity *a, double completed)
{
    if (!a) return 0;
    if (!is_valid_count(completed)) return -EINVAL;
    if (!a->enabled) return 0;
    completed = clamp_count(completed);
    double whole = floor(completed);
    atomic_store_explicit(&a->whole, (uint64_t)whole, memory_order_relaxed);
    atomic_store_explicit(&a->fraction_bits, bits_of(completed - whole), memory_order_relaxed);
    return 0;
}

int activity_set_total(activity *a, double total)
{
    if (!a) return 0;
    if (isnan(total) || isinf(total)) return -EINVAL;
    if (!a->enabled) return 0;
    atomic_store_explicit(&a->total_bits, bits_of(total < 0 ? -1 : clamp_count(total)), memory_order_relaxed);
    return 0;
}

/** Replaces the pending text in *slot (a->message or a->title) with a copy of text. */
static int set_pending_text(activity *a, char **slot, const char *text)
{
    if (!a || !text || !a->enabled || a->entry.epoch != sink_epoch()) return 0;
    char *copy = event_sanitize_utf8(text, LINE_MAX_BYTES);
    if (!copy) return -ENOMEM;
    pthread_mutex_lock(&a->message_lock);
    char *previous = *slot;
    *slot = copy;
    pthread_mutex_unlock(&a->message_lock);
    free(previous);
    return 0;
}

int activity_set_message(activity *a, const char *message)
{
    return set_pending_text(a, a ? &a->message : NULL, message);
}

int activity_set_title(activity *a, const char *title)
{
    return set_pending_text(a, a ? &a->title : NULL, title);
}

/** Puts text taken from *slot back, unless a newer one has replaced it meanwhile; message_lock held. */
static void restore_pending_text(char **slot, char *text)
{
    if (!*slot) {
        *slot = text;
    } else {
        free(text);
    }
}

/** Writes the progress not written yet; a->lock held. Returns false when it could not be written. */
static bool emit_progress_locked(activity *a, int wait_ms, bool may_block)
{
    if (a->entry.epoch != sink_epoch()) return true;
    double completed = completed_value(a);
    double total = total_value(a);
    pthread_mutex_lock(&a->message_lock);
    char *message = a->message; /* taken: a newer one may arrive while this one is written */
    char *title = a->title;
    a->message = NULL;
    a->title = NULL;
    pthread_mutex_unlock(&a->message_lock);
    bool completed_changed = completed != a->sent_completed;
    bool total_changed = total != a->sent_total;
    if (!completed_changed && !total_changed && !message && !title) return true;

    event_fields f = event_fields_empty("progress");
    f.id = a->entry.id;
    if (completed_changed) f.completed = completed;
    if (total_changed) {
        if (total < 0) f.total_null = true;
        else f.total = total;
    }
    f.message = message;
    f.title = title;
    sink_result result = write_event(&f, a->entry.epoch, wait_ms, may_block);
    if (result == SINK_WRITTEN || result == SINK_OFF) {
        /* Written, or never to be written: nothing is pending. */
        a->sent_completed = completed;
        a->sent_total = total;
        free(message);
        free(title);
        return true;
    }
    /* Still pending, unless newer text has replaced it meanwhile. */
    pthread_mutex_lock(&a->message_lock);
    if (message) restore_pending_text(&a->message, message);
    if (title) restore_pending_text(&a->title, title);
    pthread_mutex_unlock(&a->message_lock);
    return false;
}

/** The registry's writer: the pending progress of a live activity, for the flusher or activity_flush(). */
static bool write_pending(registry_entry *entry, int wait_ms, bool may_block)
{
    activity *a = HANDLE_OF(entry, entry);
    /* The flusher skips an activity another thread is writing or ending (the next tick catches
       up, and an end carries the final values): a flush never waits, so fork() never waits long
       for one (registry_before_fork). */
    if (may_block) pthread_mutex_lock(&a->lock);
    else if (pthread_mutex_trylock(&a->lock) != 0) return false;
    bool written = a->ended || emit_progress_locked(a, wait_ms, may_block);
    pthread_mutex_unlock(&a->lock);
    return written;
}

static void destroy(activity *a)
{
    pthread_mutex_destroy(&a->lock);
    pthread_mutex_destroy(&a->message_lock);
    free(a->message);
    free(a->title);
    free(a);
}

/** The registry's last reference to an entry has gone. */
static void destroy_entry(registry_entry *entry)
{
    destroy(HANDLE_OF(entry, entry));
}

int activity_log(activity *a, activity_level level, const char *message)
{
    if (!message) return 0;
    if ((unsigned)level > ACTIVITY_LEVEL_ERROR) return -EINVAL;
    if (!reporting()) return 0;
    uint64_t epoch = sink_epoch();
    event_fields f = event_fields_empty("log");
    /* A log of an activity the stream does not know is still worth showing, without its id. */
    if (a && a->enabled && a->entry.epoch == epoch) f.id = a->entry.id;
    f.level = level_names[level];
    f.message = message;
    write_event(&f, 0, sink_timeout_ms(), true);
    return 0;
}

int activity_end(activity *a, activity_status status, const char *message)
{
    if (!a) return 0;
    if ((unsigned)status > ACTIVITY_STATUS_SKIPPED) return -EINVAL;
    if (a == &disabled_handle) return 0;
    if (a->pid != getpid()) {
        /* Inherited from the parent process (whose registry and locks this process does not
           share): only the memory is left to free. */
        destroy(a);
        return 0;
    }
    if (!a->enabled) {
        /* Never in the stream. It was in the registry while its begin was being written, so the
           flusher may still hold it for a moment: the last reference frees it. */
        registry_release(&a->entry);
        return 0;
    }
    /* From here on no cancel handler runs for a: its context may go once this returns. */
    control_close(&a->cancel);
    pthread_mutex_lock(&a->lock);
    a->ended = true;
    if (a->entry.epoch == sink_epoch()) {
        /* A message not written yet goes first, in a progress line of its own, as the Swift SDK
           writes it: the end line's message says how the activity ended, not where it was. */
        pthread_mutex_lock(&a->message_lock);
        char *pending = a->message;
        char *pending_title = a->title;
        a->message = NULL;
        a->title = NULL;
        pthread_mutex_unlock(&a->message_lock);
        if (pending || pending_title) {
            event_fields p = event_fields_empty("progress");
            p.id = a->entry.id;
            p.message = pending;
            p.title = pending_title;
            write_event(&p, a->entry.epoch, sink_timeout_ms(), true);
            free(pending);
            free(pending_title);
        }
        /* The final count and total travel in the end line itself: the last progress is never
           lost, and never costs a line of its own. */
        event_fields f = event_fields_empty("end");
        f.id = a->entry.id;
        f.status = status_names[status];
        double completed = completed_value(a);
        double total = total_value(a);
        if (completed > 0 || completed != a->sent_completed) f.completed = completed;
        if (total >= 0) f.total = total;
        else if (a->sent_total >= 0) f.total_null = true;
        if (status == ACTIVITY_STATUS_FAILURE) f.error = message;
        else f.message = message;
        write_event(&f, a->entry.epoch, sink_timeout_ms(), true);
    }
    pthread_mutex_unlock(&a->lock);
    registry_remove(&a->entry);
    registry_release(&a->entry);
    return 0;
}

const char *activity_id(const activity *a)
{
    return a ? a->entry.id : NULL;
}

int activity_set_sink(const char *spec)
{
    if (!spec) return 0;
    pthread_once(&ready_once, get_ready);
    return sink_set(spec);
}

int activity_flush(int timeout_ms)
{
    if (!reporting()) return 0;
    if (timeout_ms < 0) timeout_ms = sink_timeout_ms();
    int64_t deadline = monotonic_ms() + timeout_ms;
    bool all = registry_flush(timeout_ms, true);
    int64_t remaining = deadline - monotonic_ms();
    all = sink_drain(remaining > 0 ? (int)remaining : 0, true) && all;
    return all ? 0 : -ETIMEDOUT;
}

int activity_cancel_requested(const activity *a)
{
    return a && a->cancel.cancellable && atomic_load_explicit(&a->cancel.requested, memory_order_relaxed) ? 1 : 0;
}

int activity_set_cancel_handler(activity *a, activity_cancel_handler handler, void *context)
{
    if (!a) return 0;
    if (!a->cancel.cancellable) return a->enabled ? -EINVAL : 0;
    control_set_handler(&a->cancel, handler, context);
    return 0;
}
