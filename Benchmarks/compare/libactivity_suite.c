/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A test suite as libactivity reports it: one root activity, suites of 1,000 tests under it,
 * each test a begin/end pair under its suite, every 1,000th test failing with a message. The
 * stream goes to ACTIVITY_SINK (file:PATH for the ingest benchmark); the suite reports nothing
 * else, so the stream is the library's own output, not ours re-encoded.
 *
 *   cc -O2 -Iinclude libactivity_suite.c libactivity.a -ljson-c -lpthread -lm
 *   ACTIVITY_SINK=file:suite.jsonl ./a.out 500000
 */
#include <activity.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long tests = argc > 1 ? strtol(argv[1], NULL, 10) : 500000;
    if (tests <= 0) {
        fprintf(stderr, "usage: %s [TESTS]\n", argv[0]);
        return 64;
    }
    const long per_suite = 1000;
    long suites = (tests + per_suite - 1) / per_suite;
    activity *root = activity_begin(NULL, "Running the test suite", (double)tests, "tests");
    long run = 0;
    for (long s = 0; s < suites && run < tests; s++) {
        char title[64];
        snprintf(title, sizeof title, "Suite%ldTests", s);
        activity *suite = activity_begin(root, title, -1, NULL);
        for (long t = 0; t < per_suite && run < tests; t++, run++) {
            snprintf(title, sizeof title, "test_case_%ld()", t);
            activity *test = activity_begin(suite, title, -1, NULL);
            if (run % 1000 == 999)
                activity_end(test, ACTIVITY_STATUS_FAILURE, "expected 0, got 1");
            else
                activity_end(test, ACTIVITY_STATUS_SUCCESS, NULL);
        }
        activity_end(suite, ACTIVITY_STATUS_SUCCESS, NULL);
    }
    activity_end(root, ACTIVITY_STATUS_SUCCESS, NULL);
    return activity_flush(5000) < 0 ? 1 : 0;
}
