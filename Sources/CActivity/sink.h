/* SPDX-License-Identifier: Apache-2.0 */
/* sink.c: where lines go. */
#ifndef ACTIVITY_SINK_H
#define ACTIVITY_SINK_H

#include "common.h"

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

#endif /* ACTIVITY_SINK_H */
