/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The registry of live activities and the flusher: a thread, started with the first activity,
 * that writes coalesced progress about every 100 ms while activities are live and sleeps
 * otherwise. Between two flushes it waits for control lines from the consumer (control.c). It
 * never waits for the reader: a progress line that cannot go out now stays pending and is
 * retried on the next tick. It knows an activity by its entry alone: writing one and freeing one
 * are activity.c's, registered as callbacks.
 *
 * fork() never catches the flusher in the middle of something (building a line allocates): it
 * has finished starting before activity_begin() returns, and the prepare handler waits for it to
 * be asleep. A child inherits the memory of every thread, locks included, but only the thread
 * that forked; an allocator that does not make itself safe across fork (AddressSanitizer's does
 * not) would otherwise be inherited locked by a thread the child does not have, and the child
 * would hang at its first malloc.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "registry.h"
#include "control.h"
#include "ids.h"
#include "sink.h"

/** How often the flusher writes coalesced progress, in milliseconds. */
#define FLUSH_INTERVAL_MS 100

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake;
static bool wake_ready;
static registry_entry *head;
static registry_callbacks callbacks; /* activity.c's, set before the first activity */
static size_t live;
static bool flusher_running;  /* created (it may still be starting) */
static bool flusher_started;  /* running its own code: past the thread set-up of libc and sanitizers */
static bool flushing;         /* writing, with registry_lock released */
/** Broadcast when flusher_started or flushing changes. */
static pthread_cond_t flusher_changed = PTHREAD_COND_INITIALIZER;

/** Room for the activities of one flush without allocating (nothing is allocated while idle). */
enum { BATCH = 256 };

/** Takes a reference to every live entry of the current epoch; registry_lock held. */
static registry_entry **collect_locked(registry_entry **batch, size_t *count)
{
    *count = 0;
    if (live == 0) return batch;
    registry_entry **list = live <= BATCH ? batch : malloc(live * sizeof *list);
    if (!list) return NULL;
    uint64_t current = sink_epoch();
    for (registry_entry *e = head; e; e = e->next) {
        if (e->epoch != current) continue;
        atomic_fetch_add(&e->refs, 1);
        list[(*count)++] = e;
    }
    return list;
}

/** Writes what each entry has pending, then drops the references collect_locked took. */
static bool emit_all(registry_entry **list, registry_entry **batch, size_t count, int wait_ms, bool may_block)
{
    bool all = true;
    int64_t deadline = monotonic_ms() + (wait_ms > 0 ? wait_ms : 0);
    for (size_t k = 0; k < count; k++) {
        int remaining = wait_ms > 0 ? (int)(deadline - monotonic_ms()) : 0;
        if (remaining < 0) remaining = 0;
        if (!callbacks.write_pending(list[k], remaining, may_block)) all = false;
        registry_release(list[k]);
    }
    if (list != batch) free(list);
    return all;
}

static void *flusher_main(void *unused)
{
    (void)unused;
    sink_thread_blocks_sigpipe();
    pthread_mutex_lock(&registry_lock);
    flusher_started = true;
    pthread_cond_broadcast(&flusher_changed);
    for (;;) {
        while (live == 0) pthread_cond_wait(&wake, &registry_lock);
        /* The pause between flushes is spent waiting for control lines (control.c), with the
           registry unlocked: nothing else needs to wake the flusher early. */
        pthread_mutex_unlock(&registry_lock);
        control_wait(FLUSH_INTERVAL_MS);
        pthread_mutex_lock(&registry_lock);
        registry_entry *batch[BATCH];
        size_t count = 0;
        registry_entry **list = collect_locked(batch, &count);
        flushing = true;
        pthread_mutex_unlock(&registry_lock);
        emit_all(list, batch, count, 0, false);
        pthread_mutex_lock(&registry_lock);
        flushing = false;
        pthread_cond_broadcast(&flusher_changed);
    }
    return NULL;
}

/** Starts the flusher with every signal blocked, so signals keep going to the caller's threads. */
static void start_flusher_locked(void)
{
    if (!wake_ready) {
        pthread_condattr_t attributes;
        pthread_condattr_init(&attributes);
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
        pthread_cond_init(&wake, &attributes);
        pthread_condattr_destroy(&attributes);
        wake_ready = true;
    }
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 256 * 1024);
    pthread_t thread;
    flusher_running = pthread_create(&thread, &attributes, flusher_main, NULL) == 0;
    pthread_attr_destroy(&attributes);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    /* A caller may fork as soon as its first activity_begin() returns: by then the new thread
       must be done with its set-up, which allocates (see the top of this file). */
    while (flusher_running && !flusher_started) pthread_cond_wait(&flusher_changed, &registry_lock);
}

void registry_set_callbacks(const registry_callbacks *given)
{
    callbacks = *given;
}

void registry_entry_init(registry_entry *e)
{
    atomic_init(&e->refs, 1);
    e->epoch = sink_epoch();
    e->prev = e->next = NULL;
    ids_next(e->id);
}

void registry_release(registry_entry *e)
{
    if (atomic_fetch_sub_explicit(&e->refs, 1, memory_order_acq_rel) == 1) callbacks.destroy(e);
}

void registry_add(registry_entry *e)
{
    atomic_fetch_add(&e->refs, 1);
    pthread_mutex_lock(&registry_lock);
    e->prev = NULL;
    e->next = head;
    if (head) head->prev = e;
    head = e;
    live++;
    if (!flusher_running) start_flusher_locked();
    if (live == 1 && wake_ready) pthread_cond_signal(&wake);
    pthread_mutex_unlock(&registry_lock);
}

void registry_remove(registry_entry *e)
{
    pthread_mutex_lock(&registry_lock);
    if (e->prev) e->prev->next = e->next;
    else head = e->next;
    if (e->next) e->next->prev = e->prev;
    e->prev = e->next = NULL;
    live--;
    pthread_mutex_unlock(&registry_lock);
    registry_release(e);
}

bool registry_flush(int wait_ms, bool may_block)
{
    registry_entry *batch[BATCH];
    pthread_mutex_lock(&registry_lock);
    size_t count = 0;
    registry_entry **list = collect_locked(batch, &count);
    pthread_mutex_unlock(&registry_lock);
    return emit_all(list, batch, count, wait_ms, may_block);
}

void registry_set_busy(bool busy)
{
    pthread_mutex_lock(&registry_lock);
    flushing = busy;
    if (!busy) pthread_cond_broadcast(&flusher_changed);
    pthread_mutex_unlock(&registry_lock);
}

registry_entry *registry_find(const char *id)
{
    registry_entry *found = NULL;
    pthread_mutex_lock(&registry_lock);
    uint64_t current = sink_epoch();
    for (registry_entry *e = head; e; e = e->next) {
        if (e->epoch == current && strcmp(e->id, id) == 0) {
            atomic_fetch_add(&e->refs, 1);
            found = e;
            break;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    return found;
}

void registry_before_fork(void)
{
    /* Held across fork(), so the flusher cannot begin a flush meanwhile; and one under way is
       waited for (it never waits for the reader, so this is short). */
    pthread_mutex_lock(&registry_lock);
    while (flushing) pthread_cond_wait(&flusher_changed, &registry_lock);
}

void registry_after_fork_in_parent(void)
{
    pthread_mutex_unlock(&registry_lock);
}

void registry_after_fork_in_child(void)
{
    /* The parent's activities are inert here and the flusher thread did not come along. */
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    memcpy(&registry_lock, &fresh, sizeof fresh);
    pthread_cond_t fresh_condition = PTHREAD_COND_INITIALIZER;
    memcpy(&flusher_changed, &fresh_condition, sizeof fresh_condition);
    head = NULL;
    live = 0;
    flusher_running = false;
    flusher_started = false;
    flushing = false;
    if (wake_ready) {
        pthread_condattr_t attributes;
        pthread_condattr_init(&attributes);
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
        pthread_cond_init(&wake, &attributes);
        pthread_condattr_destroy(&attributes);
    }
}
