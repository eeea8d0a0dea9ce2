/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A small test harness: each scenario runs in a fresh process (the library keeps per-process
 * state: its sink, its ids, its flusher thread), under a time limit, and the run ends with
 * "N passed, N failed".
 *
 *   test_x                 every scenario once
 *   test_x NAME            one scenario, in this process
 *   test_x --repeat N      every scenario that forks while threads run, N times, each in a fresh
 *                          process and with a small workload (harness_quick()): a race at fork
 *                          shows up once in some hundred runs, not in one
 *
 * A scenario that hangs is stopped at its time limit (TEST_TIME_LIMIT seconds, default 120; 10
 * for each repeated run) with a message saying so, and the run goes on: a hang is a failure, never
 * a stuck CI job.
 */
#ifndef ACTIVITY_TEST_HARNESS_H
#define ACTIVITY_TEST_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct scenario {
    const char *name;
    void (*run)(void);
    /* Forks while threads run and starts threads in the child, which ThreadSanitizer does not
       support ("dup thread with used id"): skipped, with a message, in the TSan build. */
    bool forks_with_threads;
} scenario;

extern int check_failures;

#define CHECK(condition)                                                                                  \
    do {                                                                                                  \
        if (!(condition)) {                                                                               \
            check_failed(__FILE__, __LINE__, #condition);                                                 \
        }                                                                                                 \
    } while (0)

#define CHECK_EQ_INT(actual, expected)                                                                    \
    do {                                                                                                  \
        long long check_a_ = (long long)(actual), check_e_ = (long long)(expected);                      \
        if (check_a_ != check_e_) check_failed_int(__FILE__, __LINE__, #actual, check_a_, check_e_);      \
    } while (0)

#define CHECK_EQ_STR(actual, expected)                                                                    \
    do {                                                                                                  \
        const char *check_a_ = (actual), *check_e_ = (expected);                                          \
        if (!check_a_ || strcmp(check_a_, check_e_) != 0)                                                 \
            check_failed_str(__FILE__, __LINE__, #actual, check_a_, check_e_);                            \
    } while (0)

void check_failed(const char *file, int line, const char *what);
void check_failed_int(const char *file, int line, const char *what, long long actual, long long expected);
void check_failed_str(const char *file, int line, const char *what, const char *actual, const char *expected);

/** Runs every scenario in its own process, or only the one named in argv[1], or repeats (above). */
int harness_main(int argc, char **argv, const scenario *scenarios, size_t count);

/** Whether this is one of many repeated runs (--repeat), where a scenario keeps its work small. */
bool harness_quick(void);

/** A fresh private directory, removed with everything in it by remove_tree(). */
char *make_temp_dir(void);
void remove_tree(const char *path);

/** Runs this test binary's scenario `name` with extra environment (NAME=VALUE, NULL-terminated),
    capturing its stdout and stderr (each up to capacity bytes); returns its exit status. */
int run_self(const char *name, const char *const *environment, char *out, size_t out_capacity, char *err,
             size_t err_capacity);

/** Reads everything from fd until end of file into a malloc'd, NUL-terminated buffer. */
char *read_all(int fd, size_t *length);

/** fork(), with the child killed when the process that forked it dies. */
pid_t fork_child(void);

/** Milliseconds on the monotonic clock. */
int64_t now_ms(void);

#endif
