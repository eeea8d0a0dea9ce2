/* SPDX-License-Identifier: Apache-2.0 */
/* registry.c: live activities, their references, and the flusher thread. */
#ifndef ACTIVITY_REGISTRY_H
#define ACTIVITY_REGISTRY_H

#include "common.h"
#include "ids.h"

/** What the registry keeps of an activity: part of the handle (activity.c), which it never sees. */
typedef struct registry_entry {
    _Atomic int refs;                   /* the caller's and the registry's, plus the flusher's while it writes */
    uint64_t epoch;                     /* the sink epoch it was begun in; another epoch makes it inert */
    struct registry_entry *prev, *next; /* guarded by the registry's lock */
    char id[ID_CAPACITY];
} registry_entry;

/** What the registry needs from above, registered once before the first activity. */
typedef struct registry_callbacks {
    /** Writes the entry's pending progress for the flusher (or activity_flush()); false when it
        could not be written now, the activity being busy included (never waited for unless
        may_block_on_sink). */
    bool (*write_pending)(registry_entry *entry, int wait_ms, bool may_block_on_sink);
    /** Frees what the entry is part of: its last reference has gone. */
    void (*destroy)(registry_entry *entry);
} registry_callbacks;

HIDDEN void registry_set_callbacks(const registry_callbacks *callbacks);
/** An entry with one reference (the caller's), a fresh id and the current sink epoch. */
HIDDEN void registry_entry_init(registry_entry *entry);
/** Drops one reference; the last destroys what the entry is part of. */
HIDDEN void registry_release(registry_entry *entry);
/** The live entry with this id in the current epoch, with a reference the caller releases, or NULL. */
HIDDEN registry_entry *registry_find(const char *id);

HIDDEN void registry_add(registry_entry *entry);
HIDDEN void registry_remove(registry_entry *entry);
/** Writes pending progress of every live activity; returns false when some could not be written. */
HIDDEN bool registry_flush(int wait_ms, bool may_block_on_sink);
/** Marks the flusher busy (fork waits for it) or idle again. */
HIDDEN void registry_set_busy(bool busy);
/** pthread_atfork handlers: no flush is under way at fork(); the child starts with an empty registry. */
HIDDEN void registry_before_fork(void);
HIDDEN void registry_after_fork_in_parent(void);
HIDDEN void registry_after_fork_in_child(void);

#endif /* ACTIVITY_REGISTRY_H */
