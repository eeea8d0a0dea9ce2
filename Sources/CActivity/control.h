/* SPDX-License-Identifier: Apache-2.0 */
/* control.c: the control direction, cancel lines from the consumer. */
#ifndef ACTIVITY_CONTROL_H
#define ACTIVITY_CONTROL_H

#include "common.h"

/** What the control direction keeps of an activity: part of the handle (activity.c). */
typedef struct control_target {
    bool cancellable;               /* begun with activity_begin_cancellable() */
    _Atomic bool requested;         /* a consumer asked to cancel it */
    activity *handle;               /* what the handler is given */
    /* Guarded by control.c's dispatch lock: */
    activity_cancel_handler handler;
    void *context;
    bool closed;                    /* ending: the handler is never called again */
} control_target;

/** What the control direction needs from above, registered once before the first activity. */
typedef struct control_hooks {
    /** The live cancel target with this id, with a reference, or NULL. */
    control_target *(*find)(const char *id);
    /** Drops the reference find took. */
    void (*release)(control_target *target);
    /** Marks the reader busy (fork waits for it) or idle again. */
    void (*set_busy)(bool busy);
} control_hooks;

HIDDEN void control_set_hooks(const control_hooks *hooks);
/** A target that has had no cancel and no handler. */
HIDDEN void control_target_init(control_target *target, activity *handle, bool cancellable);
/**
 * Waits up to timeout_ms for control lines and acts on them. Called by the flusher between its
 * flushes, with the registry unlocked; marks itself busy while it reads (fork waits).
 */
HIDDEN void control_wait(int timeout_ms);
/** Reads ACTIVITY_CONTROL (fd:N, unix:PATH or none) and says what is wrong with it. */
HIDDEN void control_configure_from_environment(void);
/** activity_set_cancel_handler(): a no-op once the activity is ending. */
HIDDEN void control_set_handler(control_target *target, activity_cancel_handler handler, void *context);
/** activity_end(): the handler is never called again once this returns (nor running elsewhere). */
HIDDEN void control_close(control_target *target);
HIDDEN void control_after_fork_in_child(void);

#endif /* ACTIVITY_CONTROL_H */
