/* SPDX-License-Identifier: Apache-2.0 */
/*
 * API tests: the exact lines written, numbers, ids, truncation and UTF-8 repair, bad input
 * (NULL, NaN, negative numbers, malformed settings), and the caller's world left as it was.
 */
#include <activity.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "stream.h"

/* ---- capturing what the library writes ---------------------------------------------------- */

static int capture_fds[2] = {-1, -1};

/** Points the sink at a fresh pipe whose read end does not block. */
static void capture_start(void)
{
    CHECK(pipe(capture_fds) == 0);
    fcntl(capture_fds[0], F_SETFL, O_NONBLOCK);
    char spec[32];
    snprintf(spec, sizeof spec, "fd:%d", capture_fds[1]);
    CHECK_EQ_INT(activity_set_sink(spec), 0);
}

/** Everything written so far (malloc'd). */
static char *capture_take(void)
{
    size_t capacity = 1 << 20, used = 0;
    char *text = malloc(capacity + 1);
    ssize_t got;
    while ((got = read(capture_fds[0], text + used, capacity - used)) > 0) used += (size_t)got;
    text[used] = '\0';
    return text;
}

/** The line with its "ts" field removed, for exact comparisons. */
static char *without_ts(const char *line)
{
    char *copy = strdup(line);
    char *ts = strstr(copy, ",\"ts\":");
    if (ts) {
        char *end = ts + 6;
        while (*end && *end != ',' && *end != '}') end++;
        memmove(ts, end, strlen(end) + 1);
    }
    char *newline = strchr(copy, '\n');
    if (newline) *newline = '\0';
    return copy;
}

/** The n-th line (0-based) of text, without its ts, or "" (malloc'd). */
static char *line_at(const char *text, int n)
{
    const char *start = text;
    for (int k = 0; k < n && start; k++) {
        start = strchr(start, '\n');
        if (start) start++;
    }
    if (!start || !*start) return strdup("");
    return without_ts(start);
}

static int count_lines(const char *text)
{
    int n = 0;
    for (const char *p = text; (p = strchr(p, '\n')); p++) n++;
    return n;
}

/* ---- the API -------------------------------------------------------------------------------- */

static void version(void)
{
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", ACTIVITY_VERSION_MAJOR, ACTIVITY_VERSION_MINOR,
             ACTIVITY_VERSION_PATCH);
    CHECK_EQ_STR(activity_version(), expected);
    CHECK_EQ_STR(ACTIVITY_VERSION_STRING, expected);
    CHECK_EQ_STR(activity_strerror(0), "success");
    CHECK(strstr(activity_strerror(-EINVAL), "invalid") != NULL);
    CHECK(activity_strerror(-ETIMEDOUT) != NULL && activity_strerror(12345) != NULL);
}

static void null_arguments(void)
{
    capture_start();
    CHECK_EQ_INT(activity_advance(NULL, 1), 0);
    CHECK_EQ_INT(activity_set_completed(NULL, 1), 0);
    CHECK_EQ_INT(activity_set_total(NULL, 1), 0);
    CHECK_EQ_INT(activity_set_message(NULL, "x"), 0);
    CHECK_EQ_INT(activity_end(NULL, ACTIVITY_STATUS_SUCCESS, "x"), 0);
    CHECK(activity_id(NULL) == NULL);
    CHECK_EQ_INT(activity_set_sink(NULL), 0);
    CHECK_EQ_INT(activity_log(NULL, ACTIVITY_LEVEL_INFO, NULL), 0);
    activity *a = activity_begin(NULL, NULL, -1, NULL);
    CHECK(a != NULL);
    CHECK_EQ_INT(activity_set_message(a, NULL), 0);
    CHECK_EQ_INT(activity_log(a, ACTIVITY_LEVEL_INFO, NULL), 0);
    CHECK_EQ_INT(activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL), 0);
    char *text = capture_take();
    char *begin = line_at(text, 0);
    CHECK(strstr(begin, "\"title\":\"\"") != NULL); /* a NULL title is "" */
    CHECK_EQ_INT(count_lines(text), 2);             /* begin and end: the NULL strings wrote nothing */
    free(begin);
    free(text);
}

static void invalid_numbers(void)
{
    capture_start();
    activity *a = activity_begin(NULL, "numbers", 10, NULL);
    char *text = capture_take();
    free(text);
    CHECK_EQ_INT(activity_advance(a, NAN), -EINVAL);
    CHECK_EQ_INT(activity_advance(a, -1), -EINVAL);
    CHECK_EQ_INT(activity_advance(a, INFINITY), -EINVAL);
    CHECK_EQ_INT(activity_set_completed(a, NAN), -EINVAL);
    CHECK_EQ_INT(activity_set_completed(a, -0.5), -EINVAL);
    CHECK_EQ_INT(activity_set_completed(a, INFINITY), -EINVAL);
    CHECK_EQ_INT(activity_set_total(a, NAN), -EINVAL);
    CHECK_EQ_INT(activity_set_total(a, INFINITY), -EINVAL);
    CHECK_EQ_INT(activity_set_total(a, -INFINITY), -EINVAL);
    CHECK_EQ_INT(activity_log(a, (activity_level)7, "x"), -EINVAL);
    CHECK_EQ_INT(activity_log(a, (activity_level)-1, "x"), -EINVAL);
    CHECK_EQ_INT(activity_end(a, (activity_status)9, "x"), -EINVAL); /* the handle stays valid */
    CHECK_EQ_INT(activity_flush(1000), 0);
    text = capture_take();
    CHECK_EQ_STR(text, ""); /* nothing was written for any of them */
    free(text);
    CHECK_EQ_INT(activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL), 0);
    text = capture_take();
    char *end = line_at(text, 0);
    CHECK(strstr(end, "\"status\":\"success\",\"total\":10}") != NULL);
    free(end);
    free(text);
}

static void disabled(void)
{
    /* ACTIVITY_SINK is unset: everything is a cheap no-op, and handles still work. */
    activity *a = activity_begin(NULL, "quiet", 3, NULL);
    CHECK(a != NULL);
    CHECK_EQ_STR(activity_id(a), "");
    CHECK_EQ_INT(activity_advance(a, 1), 0);
    CHECK_EQ_INT(activity_set_completed(a, 2), 0);
    CHECK_EQ_INT(activity_set_total(a, -1), 0);
    CHECK_EQ_INT(activity_set_message(a, "m"), 0);
    CHECK_EQ_INT(activity_log(a, ACTIVITY_LEVEL_ERROR, "m"), 0);
    activity *child = activity_begin(a, "child", 1, NULL);
    CHECK(child != NULL);
    CHECK_EQ_INT(activity_end(child, ACTIVITY_STATUS_SUCCESS, NULL), 0);
    CHECK_EQ_INT(activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL), 0);
    CHECK_EQ_INT(activity_flush(10), 0);
    CHECK_EQ_INT(activity_advance(a, NAN), -EINVAL); /* bad input is reported even when off */
    CHECK_EQ_INT(activity_set_sink("none"), 0);
    a = activity_begin(NULL, "still quiet", 3, NULL);
    CHECK(a != NULL);
    CHECK_EQ_INT(activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL), 0);
}

static void canonical_lines(void)
{
    capture_start();
    activity *a = activity_begin(NULL, "Downloading a/b \"c\"", 12, "bytes");
    char aid[64], bid[64], cid[64];
    snprintf(aid, sizeof aid, "%s", activity_id(a));
    CHECK(strlen(aid) > 17);
    activity *b = activity_begin(a, "child", -1, NULL);
    activity_set_completed(b, 1.5);
    activity_set_total(b, 4);
    activity_set_message(b, "resolving host");
    CHECK_EQ_INT(activity_flush(1000), 0);
    activity_set_total(b, -1);
    CHECK_EQ_INT(activity_flush(1000), 0);
    activity_log(b, ACTIVITY_LEVEL_WARNING, "tab\there\nnew line \x01 é ✓");
    activity_log(NULL, ACTIVITY_LEVEL_DEBUG, "no id");
    activity_end(b, ACTIVITY_STATUS_FAILURE, "disk full");
    activity_advance(a, 12);
    activity_end(a, ACTIVITY_STATUS_SUCCESS, "done");
    activity *c = activity_begin(NULL, "cancelled", 0, NULL);
    activity_end(c, ACTIVITY_STATUS_CANCELLED, NULL);
    char *text = capture_take();
    /* Ids come from one counter: the child's and the third's follow the first's. */
    const char *dot = strrchr(aid, '.');
    long first = strtol(dot + 1, NULL, 10);
    snprintf(bid, sizeof bid, "%.*s.%ld", (int)(dot - aid), aid, first + 1);
    snprintf(cid, sizeof cid, "%.*s.%ld", (int)(dot - aid), aid, first + 2);
    const char *expected[] = {
        "{\"v\":1,\"type\":\"begin\",\"id\":\"%A\",\"title\":\"Downloading a/b \\\"c\\\"\",\"total\":12,\"unit\":\"bytes\"}",
        "{\"v\":1,\"type\":\"begin\",\"id\":\"%B\",\"parent\":\"%A\",\"title\":\"child\"}",
        "{\"v\":1,\"type\":\"progress\",\"id\":\"%B\",\"completed\":1.5,\"total\":4,\"message\":\"resolving host\"}",
        "{\"v\":1,\"type\":\"progress\",\"id\":\"%B\",\"total\":null}",
        "{\"v\":1,\"type\":\"log\",\"id\":\"%B\",\"level\":\"warning\",\"message\":\"tab\\there\\nnew line \\u0001 é ✓\"}",
        "{\"v\":1,\"type\":\"log\",\"level\":\"debug\",\"message\":\"no id\"}",
        "{\"v\":1,\"type\":\"end\",\"id\":\"%B\",\"status\":\"failure\",\"completed\":1.5,\"error\":\"disk full\"}",
        "{\"v\":1,\"type\":\"end\",\"id\":\"%A\",\"status\":\"success\",\"completed\":12,\"total\":12,\"message\":\"done\"}",
        "{\"v\":1,\"type\":\"begin\",\"id\":\"%C\",\"title\":\"cancelled\",\"total\":0}",
        "{\"v\":1,\"type\":\"end\",\"id\":\"%C\",\"status\":\"cancelled\",\"total\":0}",
    };
    int count = (int)(sizeof expected / sizeof expected[0]);
    CHECK_EQ_INT(count_lines(text), count);
    for (int k = 0; k < count; k++) {
        char want[512] = "";
        size_t w = 0;
        for (const char *p = expected[k]; *p; p++) {
            if (*p == '%' && (p[1] == 'A' || p[1] == 'B' || p[1] == 'C')) {
                const char *value = p[1] == 'A' ? aid : p[1] == 'B' ? bid : cid;
                w += (size_t)snprintf(want + w, sizeof want - w, "%s", value);
                p++;
            } else {
                want[w++] = *p;
                want[w] = '\0';
            }
        }
        char *got = line_at(text, k);
        CHECK_EQ_STR(got, want);
        free(got);
    }
    stream_stats s = stream_check(text, strlen(text));
    CHECK(stream_ok(&s));
    free(text);
}

static void timestamps(void)
{
    capture_start();
    struct timespec before;
    clock_gettime(CLOCK_REALTIME, &before);
    activity_log(NULL, ACTIVITY_LEVEL_INFO, "now");
    char *text = capture_take();
    const char *ts = strstr(text, "\"ts\":");
    CHECK(ts != NULL);
    if (ts) {
        char *end = NULL;
        double value = strtod(ts + 5, &end);
        CHECK(*end == ',');
        CHECK(fabs(value - (double)before.tv_sec) < 5);
        const char *point = memchr(ts + 5, '.', (size_t)(end - (ts + 5)));
        CHECK(!point || end - point - 1 <= 6); /* microseconds at most */
    }
    free(text);
}

static void numbers(void)
{
    capture_start();
    struct {
        double value;
        const char *text;
    } cases[] = {
        {0.1, "0.1"},           {0.25, "0.25"},         {1e-05, "1e-05"},
        {1234567.125, "1234567.125"}, {3, "3"},          {1e20, "9007199254740992"},
        {9007199254740991, "9007199254740991"}, {2.0 / 3.0, "0.6666666666666666"},
        {123456789012345.6, "123456789012345.6"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        activity *a = activity_begin(NULL, "n", -1, NULL);
        activity_set_completed(a, cases[k].value);
        activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
        char *text = capture_take();
        char *end = line_at(text, 1);
        char want[128];
        snprintf(want, sizeof want, "\"completed\":%s}", cases[k].text);
        if (!strstr(end, want)) {
            fprintf(stderr, "%g: expected %s in %s\n", cases[k].value, want, end);
            check_failures++;
        }
        free(end);
        free(text);
    }
    /* Fractional advances add up; integral ones take the fast path. */
    activity *a = activity_begin(NULL, "sum", 10, NULL);
    for (int k = 0; k < 10; k++) activity_advance(a, 0.5);
    activity_advance(a, 2);
    activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
    char *text = capture_take();
    CHECK(strstr(text, "\"completed\":7,\"total\":10}") != NULL);
    free(text);
}

/** Every "completed" and "total" in text: finite, from 0 to 2^53; returns the last completed. */
static double check_counts(const char *text)
{
    double last = -1;
    const char *keys[] = {"\"completed\":", "\"total\":"};
    for (int k = 0; k < 2; k++) {
        for (const char *p = text; (p = strstr(p, keys[k])); p++) {
            const char *value = p + strlen(keys[k]);
            if (strncmp(value, "null", 4) == 0) continue;
            char *end = NULL;
            double number = strtod(value, &end);
            CHECK(end != value && (*end == ',' || *end == '}'));
            CHECK(number >= 0 && number <= 9007199254740992.0);
            CHECK(value[0] != '-' && !strchr("nNiI", value[0]));
            if (k == 0) last = number;
        }
    }
    return last;
}

/** The "completed" of the end line of text, or -1. */
static double completed_at_end(const char *text)
{
    const char *end = strstr(text, "\"type\":\"end\"");
    const char *completed = end ? strstr(end, "\"completed\":") : NULL;
    return completed ? strtod(completed + 12, NULL) : -1;
}

static void counts_saturate(void)
{
    const double max = 9007199254740992.0; /* 2^53 */
    capture_start();
    struct {
        const char *what;
        double first, delta;
        long times;
    } cases[] = {
        {"4096 x 2^52 (2^64 in all)", 0, 4503599627370496.0, 4096},
        {"a half, then 4096 x 2^52", 0.5, 4503599627370496.0, 4096},
        {"(2^32 - 1) until past 2^53", 0, 4294967295.0, (1L << 21) + 5},
        {"2^31 until past 2^53", 0, 2147483648.0, (1L << 22) + 5},
        {"from 2^53 - 1, one by one", 9007199254740991.0, 1, 1000},
        {"the largest double, twice", 0, 1.7976931348623157e308, 2},
        {"2^53 + 2, once", 0, 9007199254740994.0, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        activity *a = activity_begin(NULL, cases[k].what, 1e300, NULL);
        if (cases[k].first > 0) activity_set_completed(a, cases[k].first);
        for (long n = 0; n < cases[k].times; n++) CHECK_EQ_INT(activity_advance(a, cases[k].delta), 0);
        activity_flush(1000);
        activity_set_total(a, 1e308);
        activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
        char *text = capture_take();
        check_counts(text);
        double completed = completed_at_end(text);
        if (completed != max) {
            fprintf(stderr, "%s: the end says completed %.17g, expected 2^53\n%s", cases[k].what, completed, text);
            check_failures++;
        }
        CHECK(strstr(text, "\"total\":9007199254740992") != NULL);
        free(text);
    }
    /* Saturated, it can still be set lower, and advanced from there. */
    activity *a = activity_begin(NULL, "lower again", -1, NULL);
    for (int n = 0; n < 4096; n++) activity_advance(a, 4503599627370496.0);
    activity_set_completed(a, 10);
    activity_advance(a, 5);
    activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
    char *text = capture_take();
    check_counts(text);
    CHECK(completed_at_end(text) == 15);
    free(text);
}

/** Whether text is valid UTF-8. */
static bool valid_utf8(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        size_t need = c < 0x80 ? 0 : c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : 9;
        if (need == 9 || i + need >= n + (need == 0)) return need == 0;
        for (size_t k = 1; k <= need; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return false;
        }
        i += need + 1;
    }
    return true;
}

static void long_text(void)
{
    capture_start();
    /* ASCII, two-byte and four-byte characters: every cut must land on a boundary. */
    const char *units[] = {"a", "é", "😀", "\x01"};
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        size_t unit = strlen(units[u]);
        size_t repeat = 20000 / unit;
        char *big = malloc(repeat * unit + 1);
        for (size_t k = 0; k < repeat; k++) memcpy(big + k * unit, units[u], unit);
        big[repeat * unit] = '\0';
        activity *a = activity_begin(NULL, big, 1, big);
        activity_set_message(a, big);
        activity_flush(1000);
        activity_log(a, ACTIVITY_LEVEL_INFO, big);
        activity_end(a, ACTIVITY_STATUS_FAILURE, big);
        free(big);
        char *text = capture_take();
        CHECK_EQ_INT(count_lines(text), 4);
        const char *line = text;
        for (int k = 0; k < 4; k++) {
            const char *newline = strchr(line, '\n');
            if (!newline) break;
            size_t length = (size_t)(newline - line) + 1;
            CHECK(length <= 4096);
            CHECK(length > 4000); /* cut to fit, not emptied, escaped text too */
            CHECK(valid_utf8((const unsigned char *)line, length - 1));
            CHECK(strstr(line, "…\"") != NULL); /* cut text ends in an ellipsis */
            line = newline + 1;
        }
        stream_stats s = stream_check(text, strlen(text));
        CHECK(stream_ok(&s));
        free(text);
    }
}

static void invalid_utf8(void)
{
    capture_start();
    activity_log(NULL, ACTIVITY_LEVEL_INFO, "a\xff b\xe2\x82 c\xed\xa0\x80 d\xc0\xaf e\xf4\x90\x80\x80 ok é");
    char *text = capture_take();
    char *line = line_at(text, 0);
    /* One U+FFFD per maximal ill-formed subsequence (Unicode's recommended practice). */
    CHECK_EQ_STR(line, "{\"v\":1,\"type\":\"log\",\"level\":\"info\",\"message\":\"a\xef\xbf\xbd b\xef\xbf\xbd "
                       "c\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd d\xef\xbf\xbd\xef\xbf\xbd "
                       "e\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd ok é\"}");
    free(line);
    free(text);
}

static void ids(void)
{
    capture_start();
    char seen[1000][48];
    for (int k = 0; k < 1000; k++) {
        activity *a = activity_begin(NULL, "id", -1, NULL);
        const char *id = activity_id(a);
        snprintf(seen[k], sizeof seen[k], "%s", id);
        CHECK(strlen(id) >= 18 && id[16] == '.');
        for (int d = 0; d < 16; d++) CHECK((id[d] >= '0' && id[d] <= '9') || (id[d] >= 'a' && id[d] <= 'f'));
        activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
        if (k % 100 == 0) free(capture_take()); /* keep the pipe from filling up */
        for (int j = 0; j < k; j++) {
            if (strcmp(seen[j], seen[k]) == 0) {
                check_failed(__FILE__, __LINE__, "ids are unique");
                break;
            }
        }
    }
    free(capture_take());
}

static void parent_from_environment(void)
{
    setenv("ACTIVITY_PARENT", "make.build:42", 1);
    capture_start();
    activity *a = activity_begin(NULL, "top", -1, NULL);
    activity *b = activity_begin(a, "nested", -1, NULL);
    activity_end(b, ACTIVITY_STATUS_SUCCESS, NULL);
    activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
    char *text = capture_take();
    char *first = line_at(text, 0), *second = line_at(text, 1);
    CHECK(strstr(first, "\"parent\":\"make.build:42\"") != NULL);
    CHECK(strstr(second, "\"parent\":\"make.build:42\"") == NULL);
    CHECK(strstr(second, "\"parent\":\"") != NULL);
    free(first);
    free(second);
    free(text);
}

/* ---- settings from the environment, run in a child process -------------------------------- */

/** What a tool does: a few activities, logs and progress. Run with various environments. */
static void emit_some(void)
{
    for (int k = 0; k < 3; k++) {
        activity *a = activity_begin(NULL, "work", 2, NULL);
        activity_advance(a, 1);
        activity_set_message(a, "halfway");
        activity_log(a, ACTIVITY_LEVEL_INFO, "logged");
        activity_advance(a, 1);
        activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
    }
    activity_flush(100);
}

static void set_bad_sinks(void)
{
    const char *bad[] = {"bogus", "fd:", "fd:-1", "fd:3x", "fd:99999999999", "unix:", "file:", "tcp:localhost:1",
                         "STDOUT", " stdout"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) CHECK_EQ_INT(activity_set_sink(bad[k]), -EINVAL);
    char long_path[200];
    memset(long_path, 'x', sizeof long_path);
    memcpy(long_path, "unix:/", 6);
    long_path[sizeof long_path - 1] = '\0';
    CHECK_EQ_INT(activity_set_sink(long_path), -EINVAL);
    emit_some(); /* still unset: nothing anywhere */
}

static int lines_in(const char *text)
{
    return count_lines(text);
}

static void malformed_environment(void)
{
    static char out[1 << 16], err[1 << 16];
    const char *bad[] = {"ACTIVITY_SINK=bogus", "ACTIVITY_SINK=fd:x", "ACTIVITY_SINK=unix:", "ACTIVITY_SINK=file:"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const char *env[] = {bad[k], NULL};
        int status = run_self("_emit_some", env, out, sizeof out, err, sizeof err);
        CHECK_EQ_INT(status, 0);
        CHECK_EQ_STR(out, "");
        CHECK_EQ_INT(lines_in(err), 1); /* one message, not one per call */
        CHECK(strstr(err, "libactivity: ACTIVITY_SINK=") != NULL && strstr(err, "reporting is off") != NULL);
    }
    const char *others[][2] = {
        {"ACTIVITY_TIMEOUT_MS=soon", "ACTIVITY_TIMEOUT_MS"},
        {"ACTIVITY_PARENT=no spaces allowed", "ACTIVITY_PARENT"},
    };
    for (size_t k = 0; k < 2; k++) {
        const char *env[] = {"ACTIVITY_SINK=stdout", others[k][0], NULL};
        int status = run_self("_emit_some", env, out, sizeof out, err, sizeof err);
        CHECK_EQ_INT(status, 0);
        CHECK_EQ_INT(lines_in(err), 1);
        CHECK(strstr(err, others[k][1]) != NULL);
        stream_stats s = stream_check(out, strlen(out));
        CHECK(stream_ok(&s) && s.begins == 3 && s.ends == 3); /* the rest works */
        CHECK(strstr(out, "\"parent\"") == NULL);
    }
    /* A socket path too long for the system is said to be that, with its length and the limit. */
    char long_sink[300] = "ACTIVITY_SINK=unix:/";
    memset(long_sink + strlen(long_sink), 'a', 200);
    const char *too_long[] = {long_sink, NULL};
    CHECK_EQ_INT(run_self("_emit_some", too_long, out, sizeof out, err, sizeof err), 0);
    CHECK_EQ_STR(out, "");
    CHECK_EQ_INT(lines_in(err), 1);
    CHECK(strstr(err, "\": the socket path is 201 bytes; the system allows 107; reporting is off\n") != NULL);
    CHECK(strstr(err, "is not a sink") == NULL);
    /* The same for the control channel. */
    char long_control[300] = "ACTIVITY_CONTROL=unix:/";
    memset(long_control + strlen(long_control), 'a', 200);
    const char *control_too_long[] = {long_control, NULL};
    CHECK_EQ_INT(run_self("_emit_some", control_too_long, out, sizeof out, err, sizeof err), 0);
    CHECK_EQ_INT(lines_in(err), 1);
    CHECK(strstr(err, "\": the socket path is 201 bytes; the system allows 107; cancels are not received\n") != NULL);
    CHECK(strstr(err, "is not a control channel") == NULL);
    /* set_sink rejects bad specs with -EINVAL and prints nothing. */
    int status = run_self("_set_bad_sinks", NULL, out, sizeof out, err, sizeof err);
    CHECK_EQ_INT(status, 0);
    CHECK_EQ_STR(out, "");
    CHECK_EQ_STR(err, "");
}

static void environment_sinks(void)
{
    static char out[1 << 16], err[1 << 16];
    char *dir = make_temp_dir();
    char file_spec[700], path[600];
    snprintf(path, sizeof path, "%s/events.jsonl", dir);
    snprintf(file_spec, sizeof file_spec, "ACTIVITY_SINK=file:%s", path);
    const char *specs[] = {"ACTIVITY_SINK=stdout", "ACTIVITY_SINK=stderr", "ACTIVITY_SINK=fd:1", file_spec};
    for (size_t k = 0; k < 4; k++) {
        const char *env[] = {specs[k], NULL};
        CHECK_EQ_INT(run_self("_emit_some", env, out, sizeof out, err, sizeof err), 0);
        const char *stream = k == 1 ? err : out;
        char *from_file = NULL;
        if (k == 3) {
            int fd = open(path, O_RDONLY);
            from_file = read_all(fd, NULL);
            close(fd);
            stream = from_file;
            CHECK_EQ_STR(out, "");
        }
        stream_stats s = stream_check(stream, strlen(stream));
        CHECK(stream_ok(&s));
        CHECK_EQ_INT(s.begins, 3);
        CHECK_EQ_INT(s.logs, 3);
        free(from_file);
    }
    /* Unset, empty, none and a socket nobody listens on: silence everywhere. */
    char refused[700];
    snprintf(refused, sizeof refused, "ACTIVITY_SINK=unix:%s/nobody", dir);
    const char *quiet[] = {"ACTIVITY_SINK=", "ACTIVITY_SINK=none", refused};
    for (size_t k = 0; k < 3; k++) {
        const char *env[] = {quiet[k], NULL};
        CHECK_EQ_INT(run_self("_emit_some", env, out, sizeof out, err, sizeof err), 0);
        CHECK_EQ_STR(out, "");
        CHECK_EQ_STR(err, "");
    }
    /* A file that cannot be opened is worth one message, and so is a descriptor that is not open. */
    const char *env[] = {"ACTIVITY_SINK=file:/nonexistent-dir/events.jsonl", NULL};
    CHECK_EQ_INT(run_self("_emit_some", env, out, sizeof out, err, sizeof err), 0);
    CHECK_EQ_INT(lines_in(err), 1);
    CHECK(strstr(err, "cannot open") != NULL);
    const char *closed[] = {"ACTIVITY_SINK=fd:77", NULL};
    CHECK_EQ_INT(run_self("_emit_some", closed, out, sizeof out, err, sizeof err), 0);
    CHECK_EQ_STR(out, "");
    CHECK_EQ_INT(lines_in(err), 1);
    CHECK(strstr(err, "ACTIVITY_SINK=fd:77: descriptor 77 is not open; reporting is off") != NULL);
    remove_tree(dir);
    free(dir);
}

/* ---- fd:N takes only what is plainly a stream ------------------------------------------------- */


/** What a tool does, on the sink set now: begin, log, progress, end. */
static void emit_a_little(void)
{
    activity *a = activity_begin(NULL, "work", 2, NULL);
    activity_set_message(a, "halfway");
    activity_advance(a, 2);
    activity_log(a, ACTIVITY_LEVEL_INFO, "logged");
    activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
    activity_flush(100);
}

/** Sets the sink to fd:n and emits; returns what went to stderr meanwhile (malloc'd). */
static char *emit_to_descriptor(int n)
{
    int captured[2];
    if (pipe(captured) != 0) return strdup("pipe failed");
    int saved = dup(STDERR_FILENO);
    dup2(captured[1], STDERR_FILENO);
    char spec[32];
    snprintf(spec, sizeof spec, "fd:%d", n);
    int result = activity_set_sink(spec);
    emit_a_little();
    emit_a_little();
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(captured[1]);
    char *text = read_all(captured[0], NULL);
    close(captured[0]);
    CHECK_EQ_INT(result, 0);
    return text;
}

static off_t size_of(int fd)
{
    struct stat st;
    return fstat(fd, &st) == 0 ? st.st_size : -1;
}

static void fd_sink_kinds(void)
{
    char *dir = make_temp_dir();
    char path[600];

    /* A data file that took the number over (opened without O_APPEND): left untouched, one message. */
    snprintf(path, sizeof path, "%s/data.bin", dir);
    int data = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    char *err = emit_to_descriptor(data);
    CHECK_EQ_INT(size_of(data), 0);
    CHECK_EQ_INT(lines_in(err), 1);
    char want[200];
    snprintf(want, sizeof want,
             "libactivity: activity_set_sink(\"fd:%d\"): descriptor %d is a regular file not opened for appending "
             "(O_APPEND)",
             data, data);
    CHECK(strstr(err, want) != NULL);
    CHECK(strstr(err, "reporting is off\n") != NULL);
    free(err);
    close(data);

    /* A file opened for appending (3>>events.jsonl) takes the events. */
    snprintf(path, sizeof path, "%s/events.jsonl", dir);
    int appended = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
    err = emit_to_descriptor(appended);
    CHECK_EQ_STR(err, "");
    free(err);
    close(appended);
    int fd = open(path, O_RDONLY);
    char *text = read_all(fd, NULL);
    close(fd);
    stream_stats s = stream_check(text, strlen(text));
    CHECK(stream_ok(&s) && s.begins == 2 && s.ends == 2 && s.logs == 2);
    free(text);

    /* A pipe and a socket take them. */
    int fds[2];
    CHECK(pipe(fds) == 0);
    err = emit_to_descriptor(fds[1]);
    CHECK_EQ_STR(err, "");
    free(err);
    close(fds[1]);
    text = read_all(fds[0], NULL);
    close(fds[0]);
    s = stream_check(text, strlen(text));
    CHECK(stream_ok(&s) && s.begins == 2 && s.ends == 2);
    free(text);
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
    err = emit_to_descriptor(fds[1]);
    CHECK_EQ_STR(err, "");
    free(err);
    close(fds[1]);
    text = read_all(fds[0], NULL);
    close(fds[0]);
    s = stream_check(text, strlen(text));
    CHECK(stream_ok(&s) && s.begins == 2 && s.ends == 2);
    free(text);

    /* A terminal takes them (a pseudo-terminal here, when the system has one to give). */
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0) {
        int terminal = open(ptsname(master), O_RDWR | O_NOCTTY);
        CHECK(terminal >= 0 && isatty(terminal));
        err = emit_to_descriptor(terminal);
        CHECK_EQ_STR(err, "");
        free(err);
        fcntl(master, F_SETFL, O_NONBLOCK);
        char screen[4096];
        ssize_t got = read(master, screen, sizeof screen - 1);
        screen[got > 0 ? got : 0] = '\0';
        CHECK(strstr(screen, "\"type\":\"begin\"") != NULL);
        close(terminal);
    } else {
        fprintf(stdout, "no pseudo-terminal to test with: skipped the terminal case\n");
    }
    if (master >= 0) close(master);

    /* Not a stream, or not open for writing, or not open: one message each, nothing written. */
    int null_device = open("/dev/null", O_WRONLY);
    int directory = open(dir, O_RDONLY | O_DIRECTORY);
    CHECK(pipe(fds) == 0);
    int closed = 999;
    CHECK(fcntl(closed, F_GETFD) < 0);
    struct {
        int fd;
        const char *why;
    } refused[] = {
        {null_device, "is a character device that is not a terminal"},
        {directory, "is open for reading only"},
        {fds[0], "is open for reading only"},
        {closed, "is not open"},
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        err = emit_to_descriptor(refused[k].fd);
        CHECK_EQ_INT(lines_in(err), 1);
        if (!strstr(err, refused[k].why)) {
            fprintf(stderr, "expected \"%s\" in %s", refused[k].why, err);
            check_failures++;
        }
        free(err);
    }
    close(null_device);
    close(directory);
    close(fds[1]);
    char byte;
    CHECK_EQ_INT(read(fds[0], &byte, 1), 0); /* nothing reached the pipe through its read end */
    close(fds[0]);
    remove_tree(dir);
    free(dir);
}

/** A program that closed descriptor 7 and opened a data file, which got the number 7. */
static void open_data_file_as_7(void)
{
    const char *path = getenv("TEST_DATA_FILE");
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd != 7) {
        dup2(fd, 7);
        close(fd);
    }
    emit_some();
}

static void fd_sink_reused_by_data_file(void)
{
    static char out[1 << 16], err[1 << 16];
    char *dir = make_temp_dir();
    char variable[700];
    snprintf(variable, sizeof variable, "TEST_DATA_FILE=%s/data.bin", dir);
    const char *env[] = {"ACTIVITY_SINK=fd:7", variable, NULL};
    CHECK_EQ_INT(run_self("_open_data_file_as_7", env, out, sizeof out, err, sizeof err), 0);
    int fd = open(strchr(variable, '=') + 1, O_RDONLY);
    CHECK(fd >= 0);
    CHECK_EQ_INT(size_of(fd), 0); /* not one byte of events in the program's data */
    close(fd);
    CHECK_EQ_STR(out, "");
    CHECK_EQ_INT(lines_in(err), 1); /* once, not once per event */
    CHECK(strstr(err, "libactivity: ACTIVITY_SINK=fd:7: descriptor 7 is a regular file not opened for appending") !=
          NULL);
    remove_tree(dir);
    free(dir);
}

static void caller_world_untouched(void)
{
    /* A non-blocking pipe stays non-blocking, a blocking one blocking; close-on-exec as it was. */
    int fds[2];
    CHECK(pipe(fds) == 0);
    fcntl(fds[1], F_SETFL, O_NONBLOCK);
    int flags = fcntl(fds[1], F_GETFL), fd_flags = fcntl(fds[1], F_GETFD);
    char spec[32];
    snprintf(spec, sizeof spec, "fd:%d", fds[1]);
    sigset_t mask_before, mask_after;
    pthread_sigmask(SIG_SETMASK, NULL, &mask_before);
    struct sigaction pipe_before, pipe_after;
    sigaction(SIGPIPE, NULL, &pipe_before);
    activity_set_sink(spec);
    activity *a = activity_begin(NULL, "t", 1, NULL);
    activity_advance(a, 1);
    activity_flush(100);
    activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
    CHECK_EQ_INT(fcntl(fds[1], F_GETFL), flags);
    CHECK_EQ_INT(fcntl(fds[1], F_GETFD), fd_flags);
    pthread_sigmask(SIG_SETMASK, NULL, &mask_after);
    sigaction(SIGPIPE, NULL, &pipe_after);
    CHECK(pipe_after.sa_handler == pipe_before.sa_handler);
    for (int sig = 1; sig < 32; sig++) CHECK(sigismember(&mask_before, sig) == sigismember(&mask_after, sig));
    /* The library's flusher thread takes no signal meant for the caller's threads. */
    close(fds[0]);
    close(fds[1]);
}

static void progress_coalesced(void)
{
    capture_start();
    activity *a = activity_begin(NULL, "tight loop", 100000, NULL);
    for (int k = 0; k < 100000; k++) activity_advance(a, 1);
    activity_set_message(a, "first");
    activity_set_message(a, "second");
    /* The flusher writes it within about 100 ms; wait for it without assuming how soon. */
    char *text = NULL;
    for (int64_t deadline = now_ms() + 10000; now_ms() < deadline;) {
        char *more = capture_take();
        size_t have = text ? strlen(text) : 0;
        text = realloc(text, have + strlen(more) + 1);
        strcpy(text + have, more);
        free(more);
        if (strstr(text, "\"completed\":100000") && strstr(text, "\"second\"")) break;
        usleep(20000);
    }
    CHECK(strstr(text, "\"type\":\"progress\"") != NULL);
    CHECK(strstr(text, "\"completed\":100000") != NULL);
    CHECK(strstr(text, "\"message\":\"second\"") != NULL);
    CHECK(count_lines(text) <= 5); /* coalesced: one begin and a few progress lines, not 100,000 */
    activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
    free(text);
    free(capture_take());
}

static void title_and_parent_by_id(void)
{
    capture_start();
    activity *a = activity_begin_under("elsewhere.7", "first title", 2, NULL, 1);
    char aid[64];
    snprintf(aid, sizeof aid, "%s", activity_id(a));
    CHECK_EQ_INT(activity_set_title(a, "second title"), 0);
    CHECK_EQ_INT(activity_set_title(a, NULL), 0);
    CHECK_EQ_INT(activity_set_title(NULL, "x"), 0);
    CHECK_EQ_INT(activity_flush(1000), 0);
    activity_set_title(a, "third title"); /* not written yet at the end: goes first */
    activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
    activity *b = activity_begin_under("not an id", "top-level", -1, NULL, 0);
    activity_end(b, ACTIVITY_STATUS_SUCCESS, NULL);
    activity *c = activity_begin_under(NULL, "also top-level", -1, NULL, 0);
    activity_end(c, ACTIVITY_STATUS_SUCCESS, NULL);
    char *text = capture_take();
    CHECK_EQ_INT(count_lines(text), 8);
    char want[256];
    snprintf(want, sizeof want,
             "{\"v\":1,\"type\":\"begin\",\"id\":\"%s\",\"parent\":\"elsewhere.7\",\"title\":\"first title\","
             "\"total\":2,\"cancellable\":true}",
             aid);
    char *line = line_at(text, 0);
    CHECK_EQ_STR(line, want);
    free(line);
    snprintf(want, sizeof want, "{\"v\":1,\"type\":\"progress\",\"id\":\"%s\",\"title\":\"second title\"}", aid);
    line = line_at(text, 1);
    CHECK_EQ_STR(line, want);
    free(line);
    snprintf(want, sizeof want, "{\"v\":1,\"type\":\"progress\",\"id\":\"%s\",\"title\":\"third title\"}", aid);
    line = line_at(text, 2);
    CHECK_EQ_STR(line, want);
    free(line);
    for (int k = 4; k < 8; k += 2) {
        line = line_at(text, k);
        CHECK(strstr(line, "\"parent\"") == NULL);
        free(line);
    }
    free(text);
}

static void message_before_end(void)
{
    capture_start();
    activity *a = activity_begin(NULL, "ending soon", 10, NULL);
    const char *id = activity_id(a);
    char want_progress[200], want_end[200];
    snprintf(want_progress, sizeof want_progress, "{\"v\":1,\"type\":\"progress\",\"id\":\"%s\",", id);
    snprintf(want_end, sizeof want_end,
             "{\"v\":1,\"type\":\"end\",\"id\":\"%s\",\"status\":\"success\",\"completed\":7,\"total\":10,"
             "\"message\":\"done\"}",
             id);
    /* Set just before the end: the flusher has most likely not written them yet (if it has, the
       progress line also holds the count, and the end line is the same). */
    activity_set_message(a, "x");
    activity_advance(a, 7);
    activity_end(a, ACTIVITY_STATUS_SUCCESS, "done");
    char *text = capture_take();
    CHECK_EQ_INT(count_lines(text), 3);
    char *progress = line_at(text, 1), *end = line_at(text, 2);
    /* The message, in a line of its own before the end. */
    CHECK(strncmp(progress, want_progress, strlen(want_progress)) == 0);
    CHECK(strstr(progress, "\"message\":\"x\"}") != NULL);
    CHECK_EQ_STR(end, want_end);           /* the count and total travel in the end line */
    free(progress);
    free(end);
    free(text);

    /* Without a new message, no extra line; a failure's text stays in "error". */
    activity *b = activity_begin(NULL, "failing", -1, NULL);
    activity_set_message(b, "step 1");
    CHECK_EQ_INT(activity_flush(1000), 0);
    activity_set_message(b, "step 2");
    activity_end(b, ACTIVITY_STATUS_FAILURE, "broke");
    text = capture_take();
    CHECK_EQ_INT(count_lines(text), 4);
    char *first = line_at(text, 1), *second = line_at(text, 2), *last = line_at(text, 3);
    CHECK(strstr(first, "\"message\":\"step 1\"") != NULL);
    CHECK(strstr(second, "\"type\":\"progress\"") != NULL && strstr(second, "\"message\":\"step 2\"") != NULL);
    CHECK(strstr(last, "\"type\":\"end\"") != NULL && strstr(last, "\"error\":\"broke\"") != NULL);
    CHECK(strstr(last, "\"message\"") == NULL);
    free(first);
    free(second);
    free(last);
    free(text);
}

static void switching_sinks(void)
{
    capture_start();
    int first_read = capture_fds[0], first_write = capture_fds[1];
    activity *old = activity_begin(NULL, "old", 2, NULL);
    capture_start();
    /* The new stream never saw old's begin: old falls silent rather than confuse it. */
    activity_advance(old, 2);
    activity_log(old, ACTIVITY_LEVEL_INFO, "a log survives, without the id");
    activity_end(old, ACTIVITY_STATUS_SUCCESS, NULL);
    activity *fresh = activity_begin(NULL, "new", 1, NULL);
    activity_end(fresh, ACTIVITY_STATUS_SUCCESS, NULL);
    char *text = capture_take();
    stream_stats s = stream_check(text, strlen(text));
    CHECK(stream_ok(&s));
    CHECK_EQ_INT(s.begins, 1);
    CHECK_EQ_INT(s.logs, 1);
    CHECK(strstr(text, "\"old\"") == NULL);
    free(text);
    close(first_read);
    close(first_write);
}

static void unix_reconnects_nothing_when_refused(void)
{
    char *dir = make_temp_dir();
    char spec[700];
    snprintf(spec, sizeof spec, "unix:%s/sink", dir);
    CHECK_EQ_INT(activity_set_sink(spec), 0);
    activity *a = activity_begin(NULL, "nobody listens", 1, NULL);
    CHECK(a != NULL);
    CHECK_EQ_INT(activity_advance(a, 1), 0);
    CHECK_EQ_INT(activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL), 0);
    CHECK_EQ_INT(activity_flush(100), 0);
    remove_tree(dir);
    free(dir);
}

int main(int argc, char **argv)
{
    static const scenario scenarios[] = {
        {"version", version, false},
        {"null_arguments", null_arguments, false},
        {"invalid_numbers", invalid_numbers, false},
        {"disabled", disabled, false},
        {"canonical_lines", canonical_lines, false},
        {"timestamps", timestamps, false},
        {"numbers", numbers, false},
        {"counts_saturate", counts_saturate, false},
        {"long_text", long_text, false},
        {"invalid_utf8", invalid_utf8, false},
        {"ids", ids, false},
        {"parent_from_environment", parent_from_environment, false},
        {"malformed_environment", malformed_environment, false},
        {"environment_sinks", environment_sinks, false},
        {"caller_world_untouched", caller_world_untouched, false},
        {"progress_coalesced", progress_coalesced, false},
        {"message_before_end", message_before_end, false},
        {"title_and_parent_by_id", title_and_parent_by_id, false},
        {"switching_sinks", switching_sinks, false},
        {"unix_refused", unix_reconnects_nothing_when_refused, false},
        {"fd_sink_kinds", fd_sink_kinds, false},
        {"fd_sink_reused_by_data_file", fd_sink_reused_by_data_file, false},
        /* Helpers (a leading _): run by the scenarios above in a child with its own environment. */
        {"_emit_some", emit_some, false},
        {"_set_bad_sinks", set_bad_sinks, false},
        {"_open_data_file_as_7", open_data_file_as_7, false},
    };
    return harness_main(argc, argv, scenarios, sizeof scenarios / sizeof scenarios[0]);
}
