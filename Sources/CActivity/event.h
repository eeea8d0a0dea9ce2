/* SPDX-License-Identifier: Apache-2.0 */
/* event.c: building lines with json-c. */
#ifndef ACTIVITY_EVENT_H
#define ACTIVITY_EVENT_H

#include "common.h"

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

#endif /* ACTIVITY_EVENT_H */
