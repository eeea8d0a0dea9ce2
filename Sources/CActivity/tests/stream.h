/* SPDX-License-Identifier: Apache-2.0 */
/* Checks a captured event stream: every line whole and valid, every begin with its end. */
#ifndef ACTIVITY_TEST_STREAM_H
#define ACTIVITY_TEST_STREAM_H

#include <stdbool.h>
#include <stddef.h>

typedef struct stream_stats {
    size_t lines, begins, progress, logs, ends;
    size_t bad_lines;       /* too long, unterminated, not JSON, or not a valid event */
    size_t unmatched;       /* a begin without its end, an end without its begin, a second begin or end */
    size_t out_of_order;    /* progress or a log for an id not open at that point */
    size_t prefixes;        /* distinct id prefixes (one per process) */
    char first_problem[256];
} stream_stats;

/** Checks every line of text (length bytes). */
stream_stats stream_check(const char *text, size_t length);

/** Whether the check found nothing wrong. */
bool stream_ok(const stream_stats *s);

/** Prints the figures and the first problem to stderr, prefixed by label. */
void stream_print(const char *label, const stream_stats *s);

#endif
