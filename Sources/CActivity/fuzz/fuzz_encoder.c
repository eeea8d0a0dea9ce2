/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the encoder and everything a caller can hand it: arbitrary titles, units,
 * messages (any bytes: invalid UTF-8, control characters, very long text) and numbers (NaN,
 * infinities, negatives, huge and tiny values, many advances), through the public API into an
 * fd: sink. Every line written must be what a consumer can rely on:
 *
 * - at most 4096 bytes, ending in "\n", with no raw control character;
 * - one JSON object, by a strict parse that also validates UTF-8, of protocol v1 with a known
 *   type, a valid id, and counts that are finite, from 0 to 2^53, and integers when integral;
 * - the whole stream valid (tests/stream.c): every begin with its end, in order.
 *
 * And every call returns 0, or -EINVAL exactly when its arguments are invalid.
 *
 *   make fuzz FUZZ_SECONDS=600        (see Docs/c-library.md, "Fuzzing")
 */
#include <activity.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stream.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** The sink: a file in memory, opened for appending, emptied after each input. */
static int sink = -1;

/** Stops the run with what went wrong, where libFuzzer saves the input that did it. */
static void fail(const char *what, const char *line, size_t length)
{
    fprintf(stderr, "fuzz_encoder: %s\n", what);
    if (line) fprintf(stderr, "in the line (%zu bytes): %.*s\n", length, (int)(length > 8192 ? 8192 : length), line);
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    unsetenv("ACTIVITY_PARENT");
    sink = memfd_create("activity-fuzz-sink", MFD_CLOEXEC);
    if (sink < 0 || fcntl(sink, F_SETFL, O_APPEND) != 0) fail("no memfd for the sink", NULL, 0);
    char spec[32];
    snprintf(spec, sizeof spec, "fd:%d", sink);
    if (activity_set_sink(spec) != 0) fail("activity_set_sink refused the memfd", NULL, 0);
    return 0;
}

/* ---- the input, as fields ------------------------------------------------------------------- */

/* The input is cut at '"' (the seeds are JSON lines, so their fields become the pieces): texts
   are pieces as C strings (cut at a NUL, as a C caller's would be), numbers are read from them.
   A piece "*" N REST stands for REST repeated to N * 256 bytes: long text (cut to fit a line,
   escapes and multi-byte characters at the cut) from a short input, which libFuzzer prefers. */
enum { MAX_FIELDS = 48 };

typedef struct input {
    char *fields[MAX_FIELDS];
    size_t count;
} input;

static input split(const uint8_t *data, size_t size)
{
    input in;
    in.count = 0;
    size_t start = 0;
    for (size_t k = 0; k <= size && in.count < MAX_FIELDS; k++) {
        if (k < size && data[k] != '"') continue;
        size_t length = k - start;
        const uint8_t *piece = data + start;
        size_t repeated = length;
        if (length >= 3 && piece[0] == '*') {
            repeated = (size_t)piece[1] * 256;
            piece += 2;
            length -= 2;
        }
        char *field = malloc(repeated + 1);
        if (!field) abort();
        for (size_t done = 0; done < repeated; done += length)
            memcpy(field + done, piece, repeated - done < length ? repeated - done : length);
        field[repeated] = '\0';
        in.fields[in.count++] = field;
        start = k + 1;
    }
    return in;
}

static const char *text(const input *in, size_t k)
{
    return in->fields[k % in->count];
}

/** A text or NULL (NULL is a valid argument too: "" stands for it). */
static const char *text_or_null(const input *in, size_t k)
{
    const char *t = text(in, k);
    return *t ? t : NULL;
}

static unsigned char byte(const input *in, size_t k)
{
    return (unsigned char)text(in, k)[0];
}

/**
 * A number from field k: what strtod reads after JSON punctuation ("1e400", "-0", "nan", "inf",
 * "0x1p53"), else the first 8 bytes as a double's bits, else the field's length.
 */
static double number(const input *in, size_t k)
{
    const char *t = text(in, k);
    const char *start = t + strspn(t, ":,{}[] ");
    char *end = NULL;
    double value = strtod(start, &end);
    if (end != start) return value;
    size_t length = strlen(t);
    if (length >= sizeof value) {
        memcpy(&value, t, sizeof value);
        return value;
    }
    return (double)length;
}

/* ---- calls, with their results checked -------------------------------------------------------- */

static bool valid_count(double v)
{
    return v >= 0 && isfinite(v);
}

static void expect(int result, bool valid, const char *call)
{
    int wanted = valid ? 0 : -EINVAL;
    if (result != wanted) {
        char what[160];
        snprintf(what, sizeof what, "%s returned %d, expected %d", call, result, wanted);
        fail(what, NULL, 0);
    }
}

static void end_activity(activity *a, unsigned status, const char *message)
{
    /* An unknown status is refused and leaves the handle usable: end it properly then. */
    int result = activity_end(a, (activity_status)status, message);
    expect(result, status <= ACTIVITY_STATUS_SKIPPED, "activity_end");
    if (result != 0) expect(activity_end(a, ACTIVITY_STATUS_FAILURE, message), true, "activity_end");
}

static void run(const input *in)
{
    activity *a = activity_begin(NULL, text(in, 1), number(in, 2), text_or_null(in, 3));
    activity *b = activity_begin(a, text(in, 5), number(in, 6), text_or_null(in, 7));
    if (!a || !b) fail("activity_begin returned NULL", NULL, 0);
    for (size_t k = 0; k < in->count; k++) {
        activity *target = k & 1 ? a : b;
        unsigned char selector = byte(in, k + 1);
        double value = number(in, k);
        switch ((selector + k) % 9) {
        case 0:
            expect(activity_advance(target, value), valid_count(value), "activity_advance");
            break;
        case 1:
            expect(activity_set_completed(target, value), valid_count(value), "activity_set_completed");
            break;
        case 2:
            expect(activity_set_total(target, value), isfinite(value), "activity_set_total");
            break;
        case 3:
            expect(activity_set_message(target, text(in, k)), true, "activity_set_message");
            break;
        case 4: {
            unsigned level = (selector >> 4) % 6; /* 4 and 5 are no level */
            expect(activity_log(selector & 1 ? target : NULL, (activity_level)level, text(in, k)), level <= 3,
                   "activity_log");
            break;
        }
        case 5:
            activity_flush(0);
            break;
        case 6: {
            activity *c = activity_begin(target, text(in, k), value, text_or_null(in, k + 1));
            if (!c) fail("activity_begin returned NULL", NULL, 0);
            expect(activity_advance(c, number(in, k + 2)), valid_count(number(in, k + 2)), "activity_advance");
            end_activity(c, (selector >> 3) % 6, text_or_null(in, k + 2));
            break;
        }
        case 7:
            for (unsigned n = 0; n < selector % 64; n++)
                expect(activity_advance(target, value), valid_count(value), "activity_advance");
            break;
        default:
            expect(activity_set_total(target, -1), true, "activity_set_total");
            break;
        }
    }
    end_activity(b, byte(in, in->count - 1) % 6, text_or_null(in, in->count - 1));
    end_activity(a, byte(in, in->count - 2) % 6, text_or_null(in, in->count - 2));
}

/* ---- what was written, checked ---------------------------------------------------------------- */

static bool valid_id(const char *s)
{
    size_t length = strlen(s);
    if (length < 1 || length > 128) return false;
    for (const char *p = s; *p; p++) {
        if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:@/+-", *p)) return false;
    }
    return true;
}

static void check_count(struct json_object *o, const char *key, bool null_allowed, const char *line, size_t length)
{
    struct json_object *value;
    if (!json_object_object_get_ex(o, key, &value)) return;
    if (!value) {
        if (!null_allowed) fail("a count is null", line, length);
        return;
    }
    double v;
    if (json_object_is_type(value, json_type_int)) {
        int64_t i = json_object_get_int64(value);
        if (i < 0 || i > ((int64_t)1 << 53)) fail("an integer count is out of [0, 2^53]", line, length);
        return;
    }
    if (!json_object_is_type(value, json_type_double)) fail("a count is not a number", line, length);
    v = json_object_get_double(value);
    if (!(v >= 0 && v <= 9007199254740992.0)) fail("a count is negative, above 2^53, or not finite", line, length);
    if (v == floor(v)) fail("an integral count is written as a fraction", line, length);
}

static void check_line(struct json_tokener *tokener, const char *line, size_t length)
{
    if (length > 4096) fail("a line is longer than 4096 bytes", line, length);
    if (line[length - 1] != '\n') fail("a line does not end in a newline", line, length);
    for (size_t k = 0; k + 1 < length; k++) {
        if ((unsigned char)line[k] < 0x20) fail("a raw control character", line, length);
    }
    json_tokener_reset(tokener);
    struct json_object *o = json_tokener_parse_ex(tokener, line, (int)length - 1);
    if (!o || json_tokener_get_parse_end(tokener) != length - 1) fail("not one strict JSON value", line, length);
    if (!json_object_is_type(o, json_type_object)) fail("not a JSON object", line, length);
    struct json_object *v, *type, *id;
    if (!json_object_object_get_ex(o, "v", &v) || !json_object_is_type(v, json_type_int) || json_object_get_int(v) != 1)
        fail("no \"v\":1", line, length);
    if (!json_object_object_get_ex(o, "type", &type) || !json_object_is_type(type, json_type_string))
        fail("no type", line, length);
    const char *t = json_object_get_string(type);
    bool is_log = strcmp(t, "log") == 0;
    if (!is_log && strcmp(t, "begin") != 0 && strcmp(t, "progress") != 0 && strcmp(t, "end") != 0)
        fail("an unknown type", line, length);
    bool has_id = json_object_object_get_ex(o, "id", &id);
    if ((!has_id && !is_log) || (has_id && (!json_object_is_type(id, json_type_string) ||
                                            !valid_id(json_object_get_string(id)))))
        fail("a missing or invalid id", line, length);
    check_count(o, "completed", false, line, length);
    check_count(o, "total", strcmp(t, "begin") != 0, line, length);
    json_object_put(o);
}

static void check_output(void)
{
    struct stat st;
    if (fstat(sink, &st) != 0) fail("fstat of the sink", NULL, 0);
    size_t size = (size_t)st.st_size;
    char *text_written = malloc(size + 1);
    if (!text_written) abort();
    if (size > 0 && pread(sink, text_written, size, 0) != (ssize_t)size) fail("pread of the sink", NULL, 0);
    text_written[size] = '\0';
    struct json_tokener *tokener = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH);
    json_tokener_set_flags(tokener, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    for (size_t offset = 0; offset < size;) {
        const char *newline = memchr(text_written + offset, '\n', size - offset);
        size_t length = newline ? (size_t)(newline - (text_written + offset)) + 1 : size - offset;
        check_line(tokener, text_written + offset, length);
        offset += length;
    }
    json_tokener_free(tokener);
    stream_stats s = stream_check(text_written, size);
    if (!stream_ok(&s) || s.begins < 2 || s.begins != s.ends) {
        stream_print("fuzz", &s);
        fail("the stream is not valid", text_written, size);
    }
    free(text_written);
    if (ftruncate(sink, 0) != 0) fail("ftruncate of the sink", NULL, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input in = split(data, size);
    run(&in);
    /* Every activity has ended, so nothing writes any more: the stream is complete. */
    check_output();
    for (size_t k = 0; k < in.count; k++) free(in.fields[k]);
    return 0;
}
