/* SPDX-License-Identifier: Apache-2.0 */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int check_failures;

void check_failed(const char *file, int line, const char *what)
{
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    check_failures++;
}

void check_failed_int(const char *file, int line, const char *what, long long actual, long long expected)
{
    fprintf(stderr, "%s:%d: check failed: %s is %lld, expected %lld\n", file, line, what, actual, expected);
    check_failures++;
}

void check_failed_str(const char *file, int line, const char *what, const char *actual, const char *expected)
{
    fprintf(stderr, "%s:%d: check failed: %s is\n  \"%s\"\nexpected\n  \"%s\"\n", file, line, what,
            actual ? actual : "(null)", expected);
    check_failures++;
}

int64_t now_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

pid_t fork_child(void)
{
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(9);
    }
    return pid;
}

char *make_temp_dir(void)
{
    const char *base = getenv("TMPDIR");
    char pattern[512];
    snprintf(pattern, sizeof pattern, "%s/libactivity-test.XXXXXX", base && *base ? base : "/tmp");
    char *path = mkdtemp(pattern);
    if (!path) {
        perror("mkdtemp");
        exit(2);
    }
    return strdup(path);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void remove_tree(const char *path)
{
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

char *read_all(int fd, size_t *length)
{
    size_t capacity = 1 << 16, used = 0;
    char *buffer = malloc(capacity + 1);
    for (;;) {
        if (used == capacity) {
            capacity *= 2;
            buffer = realloc(buffer, capacity + 1);
        }
        ssize_t n = read(fd, buffer + used, capacity - used);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        used += (size_t)n;
    }
    buffer[used] = '\0';
    if (length) *length = used;
    return buffer;
}

/** environ with the given NAME=VALUE entries replacing or added to it. */
static char **environment_with(const char *const *extra)
{
    size_t count = 0, extras = 0;
    while (environ[count]) count++;
    while (extra && extra[extras]) extras++;
    char **result = calloc(count + extras + 1, sizeof *result);
    size_t used = 0;
    for (size_t k = 0; k < count; k++) {
        bool replaced = false;
        for (size_t e = 0; e < extras; e++) {
            size_t name = strcspn(extra[e], "=");
            if (strncmp(environ[k], extra[e], name + 1) == 0) replaced = true;
        }
        if (!replaced) result[used++] = environ[k];
    }
    for (size_t e = 0; e < extras; e++) result[used++] = (char *)extra[e];
    return result;
}

/** The time limit of a scenario run by harness_main, in seconds; its helpers (run_self) inherit it. */
static int limit_seconds = 120;

/** What a scenario that hangs says when its time is up (built beforehand: said from a signal handler). */
static char timeout_message[512];

static void on_timeout(int signal)
{
    (void)signal;
    ssize_t ignored = write(STDERR_FILENO, timeout_message, strlen(timeout_message));
    (void)ignored;
    _exit(124); /* its children follow it (fork_child: PR_SET_PDEATHSIG) */
}

static void read_time_limit(void)
{
    const char *text = getenv("TEST_TIME_LIMIT");
    if (text && atoi(text) > 0) limit_seconds = atoi(text);
}

/** Ends this process with a message if the scenario has not finished within limit_seconds. */
static void arm_time_limit(const char *name)
{
    read_time_limit();
    snprintf(timeout_message, sizeof timeout_message,
             "\nTIMEOUT: scenario \"%s\" (pid %d) did not finish within %d s: it hangs. Run it alone in a loop "
             "and attach gdb -p to the stuck process to see where.\n",
             name, (int)getpid(), limit_seconds);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_timeout;
    sigaction(SIGALRM, &action, NULL);
    alarm((unsigned)limit_seconds);
}

bool harness_quick(void)
{
    const char *text = getenv("TEST_QUICK");
    return text && *text == '1';
}

/** run_self() with more environment: the time limit, and whether the run is quick. */
static int run_scenario(const char *name, int seconds, bool quick, char *out, size_t out_capacity, char *err,
                        size_t err_capacity);

int run_self(const char *name, const char *const *environment, char *out, size_t out_capacity, char *err,
             size_t err_capacity)
{
    int out_pipe[2], err_pipe[2];
    if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return -1;
    self[n] = '\0';
    char *argv[] = {self, (char *)name, NULL};
    char **env = environment_with(environment);
    pid_t pid;
    int spawned = posix_spawn(&pid, self, &actions, NULL, argv, env);
    free(env);
    posix_spawn_file_actions_destroy(&actions);
    close(out_pipe[1]);
    close(err_pipe[1]);
    if (spawned != 0) return -1;
    size_t out_used = 0, err_used = 0;
    struct pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    int open_count = 2, status = 0;
    bool exited = false;
    int64_t exited_at = 0;
    /* The child stops itself at its time limit; should even that fail, it is killed a little later. */
    int64_t kill_at = now_ms() + (int64_t)limit_seconds * 1000 + 10000;
    /* Until both pipes close, or shortly after the scenario exits (a stray grandchild may hold
       them open: it must not hang the run). */
    while (open_count > 0 && !(exited && now_ms() - exited_at > 500)) {
        if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
            exited = true;
            exited_at = now_ms();
        }
        if (!exited && now_ms() > kill_at) {
            fprintf(stderr, "TIMEOUT: \"%s\" (pid %d) ignored its time limit; killed\n", name, (int)pid);
            kill(pid, SIGKILL);
            kill_at = INT64_MAX;
        }
        if (poll(fds, 2, 100) < 0 && errno != EINTR) break;
        for (int k = 0; k < 2; k++) {
            if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char chunk[4096];
            ssize_t got = read(fds[k].fd, chunk, sizeof chunk);
            if (got <= 0) {
                close(fds[k].fd);
                fds[k].fd = -1;
                open_count--;
                continue;
            }
            char *target = k == 0 ? out : err;
            size_t capacity = k == 0 ? out_capacity : err_capacity;
            size_t *used = k == 0 ? &out_used : &err_used;
            if (target && capacity > 0) {
                size_t room = capacity - 1 - *used;
                size_t take = (size_t)got < room ? (size_t)got : room;
                memcpy(target + *used, chunk, take);
                *used += take;
            }
        }
    }
    for (int k = 0; k < 2; k++) {
        if (fds[k].fd >= 0) close(fds[k].fd);
    }
    if (out && out_capacity) out[out_used] = '\0';
    if (err && err_capacity) err[err_used] = '\0';
    while (!exited && waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

static int run_scenario(const char *name, int seconds, bool quick, char *out, size_t out_capacity, char *err,
                        size_t err_capacity)
{
    char limit[32];
    snprintf(limit, sizeof limit, "TEST_TIME_LIMIT=%d", seconds);
    const char *environment[] = {limit, quick ? "TEST_QUICK=1" : "TEST_QUICK=0", NULL};
    int saved = limit_seconds;
    limit_seconds = seconds;
    int status = run_self(name, environment, out, out_capacity, err, err_capacity);
    limit_seconds = saved;
    return status;
}

static void print_failure(const char *name, const char *what, int status, const char *out, const char *err)
{
    if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 124)
        printf("FAIL  %-28s %stimed out: it hangs\n", name, what);
    else if (status >= 0 && WIFSIGNALED(status))
        printf("FAIL  %-28s %skilled by signal %d\n", name, what, WTERMSIG(status));
    else
        printf("FAIL  %-28s %sexit status %d\n", name, what, status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    if (out[0]) printf("  stdout:\n%s\n", out);
    if (err[0]) printf("  stderr:\n%s\n", err);
}

static bool skipped_here(const scenario *s)
{
#if defined(__SANITIZE_THREAD__)
    if (s->forks_with_threads) {
        printf("skip  %-28s ThreadSanitizer cannot start threads after a multi-threaded fork\n", s->name);
        return true;
    }
#else
    (void)s;
#endif
    return false;
}

int harness_main(int argc, char **argv, const scenario *scenarios, size_t count)
{
    int repeat = 0;
    read_time_limit();
    if (argc >= 3 && strcmp(argv[1], "--repeat") == 0) {
        repeat = atoi(argv[2]);
        if (repeat <= 0) {
            fprintf(stderr, "--repeat needs a positive count\n");
            return 2;
        }
    } else if (argc >= 2) {
        for (size_t k = 0; k < count; k++) {
            if (strcmp(argv[1], scenarios[k].name) != 0) continue;
            arm_time_limit(argv[1]);
            scenarios[k].run();
            fflush(stdout);
            return check_failures ? 1 : 0;
        }
        fprintf(stderr, "no scenario named \"%s\"\n", argv[1]);
        return 2;
    }
    /* The caller's own reporting settings must not leak into the scenarios. */
    unsetenv("ACTIVITY_SINK");
    unsetenv("ACTIVITY_PARENT");
    unsetenv("ACTIVITY_TIMEOUT_MS");
    int passed = 0, failed = 0, skipped = 0;
    for (size_t k = 0; k < count; k++) {
        static char out[1 << 16], err[1 << 16];
        if (scenarios[k].name[0] == '_') continue; /* a helper, run by other scenarios */
        if (repeat > 0 && !scenarios[k].forks_with_threads) continue;
        if (skipped_here(&scenarios[k])) {
            skipped++;
            continue;
        }
        int64_t start = now_ms();
        if (repeat == 0) {
            int status = run_scenario(scenarios[k].name, limit_seconds, false, out, sizeof out, err, sizeof err);
            int64_t elapsed = now_ms() - start;
            if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
                passed++;
                printf("ok    %-28s %6lld ms\n", scenarios[k].name, (long long)elapsed);
                if (getenv("TEST_VERBOSE")) {
                    if (out[0]) printf("  stdout:\n%s\n", out);
                    if (err[0]) printf("  stderr:\n%s\n", err);
                }
            } else {
                failed++;
                print_failure(scenarios[k].name, "", status, out, err);
            }
            fflush(stdout);
            continue;
        }
        /* Repeated: stop at the first failure and show it. */
        int run = 0, status = 0;
        for (run = 1; run <= repeat; run++) {
            status = run_scenario(scenarios[k].name, 10, true, out, sizeof out, err, sizeof err);
            if (!(status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)) break;
        }
        int64_t elapsed = now_ms() - start;
        if (run > repeat) {
            passed++;
            printf("ok    %-28s %6lld ms for %d runs\n", scenarios[k].name, (long long)elapsed, repeat);
        } else {
            failed++;
            char what[64];
            snprintf(what, sizeof what, "run %d of %d: ", run, repeat);
            print_failure(scenarios[k].name, what, status, out, err);
        }
        fflush(stdout);
    }
    if (skipped) printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    else printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
