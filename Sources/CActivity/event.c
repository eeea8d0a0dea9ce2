/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Building event lines with json-c, in the same canonical form as the Swift encoder
 * (Sources/ActivityWire/JSONWriter.swift): key order v, type, ts, id, then the type's fields;
 * defaults left out; integral numbers as integers, others in their shortest round-trip form;
 * "/" not escaped; compact; at most 4096 bytes with the newline, text cut with "…".
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "event.h"

static const char ellipsis[] = "\xE2\x80\xA6"; /* … */
#define ELLIPSIS_BYTES 3

event_fields event_fields_empty(const char *type)
{
    event_fields f;
    memset(&f, 0, sizeof f);
    f.type = type;
    f.completed = -1;
    f.total = -1;
    return f;
}

void event_format_double(double value, char out[32])
{
    /* %.15g is exact for every double that has a shorter form; otherwise add digits. */
    for (int precision = 15; precision <= 17; precision++) {
        snprintf(out, 32, "%.*g", precision, value);
        if (strtod(out, NULL) == value) return;
    }
}

/** A number: an integer when integral, else the shortest text that reads back the same. */
static struct json_object *number(double value)
{
    if (value == (double)(int64_t)value) return json_object_new_int64((int64_t)value);
    char text[32];
    event_format_double(value, text);
    return json_object_new_double_s(value, text);
}

/** A count as the protocol allows it: clamped to [0, 2^53]. */
static struct json_object *count(double value)
{
    if (value < 0) value = 0;
    if (value > MAX_COUNT) value = MAX_COUNT;
    return number(value);
}

/** Unix time in seconds with microseconds, as text without needless zeros: read once per event. */
typedef struct timestamp_text {
    char text[40];
    bool integral;
} timestamp_text;

static timestamp_text timestamp_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    timestamp_text t;
    long micros = now.tv_nsec / 1000;
    t.integral = micros == 0;
    int length = snprintf(t.text, sizeof t.text, "%lld.%06ld", (long long)now.tv_sec, micros);
    while (length > 0 && t.text[length - 1] == '0') t.text[--length] = '\0';
    if (t.integral) t.text[--length] = '\0'; /* the point */
    return t;
}

static struct json_object *timestamp(const timestamp_text *t)
{
    if (t->integral) return json_object_new_int64(strtoll(t->text, NULL, 10));
    return json_object_new_double_s(strtod(t->text, NULL), t->text);
}

char *event_sanitize_utf8(const char *s, size_t max_bytes)
{
    size_t length = strlen(s);
    if (length > max_bytes + 4) length = max_bytes + 4; /* nothing past it can be kept */
    char *out = malloc(length * 3 + ELLIPSIS_BYTES + 2); /* every byte may become U+FFFD */
    if (!out) return NULL;
    const unsigned char *in = (const unsigned char *)s;
    size_t i = 0, o = 0;
    while (i < length) {
        unsigned char c = in[i];
        size_t need = 0;
        unsigned char low = 0x80, high = 0xBF; /* the range of the second byte */
        if (c < 0x80) {
            if (o + 1 > max_bytes) break;
            out[o++] = (char)c;
            i++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            if (c == 0xE0) low = 0xA0;
            if (c == 0xED) high = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            if (c == 0xF0) low = 0x90;
            if (c == 0xF4) high = 0x8F;
        }
        size_t valid = 0; /* continuation bytes that fit, up to need */
        if (need > 0) {
            while (valid < need && i + 1 + valid < length) {
                unsigned char next = in[i + 1 + valid];
                unsigned char lo = valid == 0 ? low : 0x80, hi = valid == 0 ? high : 0xBF;
                if (next < lo || next > hi) break;
                valid++;
            }
        }
        if (need > 0 && valid == need) {
            if (o + need + 1 > max_bytes) break;
            memcpy(out + o, in + i, need + 1);
            o += need + 1;
            i += need + 1;
        } else {
            /* The maximal ill-formed subpart becomes one U+FFFD. */
            if (o + 3 > max_bytes) break;
            memcpy(out + o, "\xEF\xBF\xBD", 3);
            o += 3;
            i += 1 + valid;
        }
    }
    out[o] = '\0';
    return out;
}

/** The text fields the encoder may shorten, in the Swift encoder's order of preference. */
enum { F_TITLE, F_MESSAGE, F_UNIT, F_ERROR, F_COUNT };

static void add_string(struct json_object *o, const char *key, const char *value)
{
    if (value) json_object_object_add(o, key, json_object_new_string(value));
}

static struct json_object *build_object(const event_fields *f, char *const text[F_COUNT], const timestamp_text *ts)
{
    struct json_object *o = json_object_new_object();
    if (!o) return NULL;
    json_object_object_add(o, "v", json_object_new_int(ACTIVITY_PROTOCOL_VERSION));
    json_object_object_add(o, "type", json_object_new_string(f->type));
    json_object_object_add(o, "ts", timestamp(ts));
    add_string(o, "id", f->id);
    switch (f->type[0]) {
    case 'b': /* begin */
        add_string(o, "parent", f->parent);
        add_string(o, "title", text[F_TITLE] ? text[F_TITLE] : "");
        if (f->total >= 0) json_object_object_add(o, "total", count(f->total));
        if (f->completed > 0) json_object_object_add(o, "completed", count(f->completed));
        add_string(o, "unit", text[F_UNIT]);
        add_string(o, "message", text[F_MESSAGE]);
        if (f->cancellable) json_object_object_add(o, "cancellable", json_object_new_boolean(1));
        break;
    case 'p': /* progress */
        if (f->completed >= 0) json_object_object_add(o, "completed", count(f->completed));
        if (f->total_null) json_object_object_add(o, "total", NULL);
        else if (f->total >= 0) json_object_object_add(o, "total", count(f->total));
        add_string(o, "title", text[F_TITLE]);
        add_string(o, "message", text[F_MESSAGE]);
        break;
    case 'l': /* log */
        add_string(o, "level", f->level);
        add_string(o, "message", text[F_MESSAGE] ? text[F_MESSAGE] : "");
        break;
    default: /* end */
        add_string(o, "status", f->status);
        if (f->completed >= 0) json_object_object_add(o, "completed", count(f->completed));
        if (f->total_null) json_object_object_add(o, "total", NULL);
        else if (f->total >= 0) json_object_object_add(o, "total", count(f->total));
        add_string(o, "message", text[F_MESSAGE]);
        add_string(o, "error", text[F_ERROR]);
        break;
    }
    return o;
}

/** Serializes into out with a newline; returns the line's length, newline included, or 0. */
static size_t serialize(const event_fields *f, char *const text[F_COUNT], const timestamp_text *ts, char *out,
                        size_t *needed)
{
    struct json_object *o = build_object(f, text, ts);
    if (!o) return 0;
    size_t length = 0;
    const char *json =
        json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &length);
    *needed = json ? length + 1 : 0;
    size_t result = 0;
    if (json && length + 1 <= LINE_MAX_BYTES) {
        memcpy(out, json, length);
        out[length] = '\n';
        out[length + 1] = '\0';
        result = length + 1;
    }
    json_object_put(o);
    return result;
}

/** text cut to at most bytes bytes on a UTF-8 boundary, plus "…" (malloc'd), as the Swift encoder cuts it. */
static char *truncated(const char *text, size_t bytes)
{
    size_t length = strlen(text);
    if (length <= bytes) return strdup(text);
    size_t end = bytes;
    while (end > 0 && ((unsigned char)text[end] & 0xC0) == 0x80) end--;
    char *result = malloc(end + ELLIPSIS_BYTES + 1);
    if (!result) return NULL;
    memcpy(result, text, end);
    memcpy(result + end, ellipsis, ELLIPSIS_BYTES + 1);
    return result;
}

/**
 * Text longer than this is cut before anything else. It can never fit in a line, so where the
 * cut falls makes no difference, except when several fields are longer than this: then which
 * one is shortened first may differ from the Swift encoder's choice.
 */
#define TEXT_PRECUT_BYTES (16 * LINE_MAX_BYTES)

size_t event_build(const event_fields *f, char *out)
{
    const char *source[F_COUNT] = {f->title, f->message, f->unit, f->error};
    char *text[F_COUNT] = {NULL, NULL, NULL, NULL};
    size_t result = 0;
    timestamp_text ts = timestamp_now();
    for (int k = 0; k < F_COUNT; k++) {
        if (!source[k]) continue;
        text[k] = event_sanitize_utf8(source[k], TEXT_PRECUT_BYTES);
        if (!text[k]) goto done;
    }
    /* Which fields an event of this type may shorten, in order (ties go to the first). */
    int order[F_COUNT], fields = 0;
    switch (f->type[0]) {
    case 'b': order[fields++] = F_TITLE; order[fields++] = F_MESSAGE; order[fields++] = F_UNIT; break;
    case 'p': order[fields++] = F_TITLE; order[fields++] = F_MESSAGE; break;
    case 'l': order[fields++] = F_MESSAGE; break;
    default: order[fields++] = F_MESSAGE; order[fields++] = F_ERROR; break;
    }
    /* The Swift encoder's algorithm, step for step, so both cut text at the same byte: while the
       line is too long, take the longest text field; if even "…" alone leaves no room, use that
       and go on; else keep the longest prefix that fits, found by bisection (escapes make the
       encoded length differ from the raw length). */
    for (;;) {
        size_t needed = 0;
        result = serialize(f, text, &ts, out, &needed);
        if (result > 0 || needed == 0) break;
        int longest = -1;
        size_t longest_length = 0;
        for (int k = 0; k < fields; k++) {
            size_t length = text[order[k]] ? strlen(text[order[k]]) : 0;
            if (length > ELLIPSIS_BYTES && length > longest_length) {
                longest = order[k];
                longest_length = length;
            }
        }
        if (longest < 0) break; /* nothing left to cut: the event is dropped */
        char *original = text[longest];
        char *best = strdup(ellipsis);
        if (!best) {
            result = 0;
            goto done;
        }
        text[longest] = best;
        size_t shortest_needed = 0;
        serialize(f, text, &ts, out, &shortest_needed);
        if (shortest_needed >= LINE_MAX_BYTES || shortest_needed == 0) {
            free(original);
            continue; /* this field alone cannot make room */
        }
        size_t fits = 0, too_long = longest_length;
        while (too_long - fits > 1) {
            size_t middle = (fits + too_long) / 2;
            char *candidate = truncated(original, middle);
            if (!candidate) break;
            text[longest] = candidate;
            size_t candidate_needed = 0;
            serialize(f, text, &ts, out, &candidate_needed);
            if (candidate_needed != 0 && candidate_needed <= LINE_MAX_BYTES) {
                fits = middle;
                free(best);
                best = candidate;
            } else {
                too_long = middle;
                free(candidate);
            }
        }
        text[longest] = best;
        free(original);
    }
done:
    for (int k = 0; k < F_COUNT; k++) free(text[k]);
    return result;
}
