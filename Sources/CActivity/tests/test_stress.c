/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stress tests: many threads and processes writing into one pipe, file or socket; readers that
 * die or stall; fork. Every captured stream is checked line by line: whole, valid, every begin
 * with its end. Also run under ThreadSanitizer and AddressSanitizer/UBSan (make check-tsan,
 * make check-asan).
 */
#include <activity.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "stream.h"

/* One "event" is one line: each activity writes begin, two logs and end. */
enum { PIPE_THREADS = 8, PIPE_EVENTS_PER_THREAD = 10000 };
enum { FILE_PROCESSES = 4, FILE_EVENTS_PER_PROCESS = 10000 };
enum { UNIX_PROCESSES = 4, UNIX_THREADS = 8, UNIX_EVENTS_PER_THREAD = 2000 };

typedef struct work {
    int activities;
    int failures; /* calls that returned an error */
    activity *shared;
} work;

/** begin, log, advance, log, end: four lines per activity. */
static void *produce(void *argument)
{
    work *w = argument;
    for (int k = 0; k < w->activities; k++) {
        activity *a = activity_begin(w->shared, "Compiling module.swift", 4, "steps");
        if (!a) w->failures++;
        if (activity_log(a, ACTIVITY_LEVEL_INFO, "started") != 0) w->failures++;
        for (int step = 0; step < 4; step++) {
            if (activity_advance(a, 1) != 0) w->failures++;
        }
        if (activity_log(a, ACTIVITY_LEVEL_DEBUG, "a line with \"quotes\", a / and é") != 0) w->failures++;
        if (activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL) != 0) w->failures++;
        if (w->shared && activity_advance(w->shared, 1) != 0) w->failures++;
    }
    return NULL;
}

/** Runs threads producers of activities each; returns the number of failed calls. */
static int produce_in_threads(int threads, int activities, activity *shared)
{
    pthread_t ids[64];
    work works[64];
    for (int t = 0; t < threads; t++) {
        works[t] = (work){activities, 0, shared};
        pthread_create(&ids[t], NULL, produce, &works[t]);
    }
    int failures = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(ids[t], NULL);
        failures += works[t].failures;
    }
    return failures;
}

typedef struct reader {
    int fd;
    char *text;
    size_t length;
} reader;

static void *read_everything(void *argument)
{
    reader *r = argument;
    r->text = read_all(r->fd, &r->length);
    return NULL;
}

static char sink_spec[700];

static void set_sink_fd(int fd)
{
    snprintf(sink_spec, sizeof sink_spec, "fd:%d", fd);
    CHECK_EQ_INT(activity_set_sink(sink_spec), 0);
}

/* ---- 8 threads × 10,000 events into one pipe ---------------------------------------------- */

static void pipe_threads(void)
{
    int fds[2];
    CHECK(pipe(fds) == 0);
    set_sink_fd(fds[1]);
    reader r = {fds[0], NULL, 0};
    pthread_t thread;
    pthread_create(&thread, NULL, read_everything, &r);
    int per_thread = PIPE_EVENTS_PER_THREAD / 4;
    CHECK_EQ_INT(produce_in_threads(PIPE_THREADS, per_thread, NULL), 0);
    close(fds[1]); /* the library only borrows it: closing it is the end of the stream */
    pthread_join(thread, NULL);
    stream_stats s = stream_check(r.text, r.length);
    stream_print("pipe", &s);
    CHECK(stream_ok(&s));
    CHECK_EQ_INT(s.begins, PIPE_THREADS * per_thread);
    CHECK_EQ_INT(s.ends, PIPE_THREADS * per_thread);
    CHECK_EQ_INT(s.logs, 2 * PIPE_THREADS * per_thread);
    CHECK_EQ_INT(s.prefixes, 1);
    free(r.text);
    close(fds[0]);
}

/* ---- 4 processes appending to one file ---------------------------------------------------- */

static void file_processes(void)
{
    char *dir = make_temp_dir();
    char path[600];
    snprintf(path, sizeof path, "%s/events.jsonl", dir);
    pid_t children[FILE_PROCESSES];
    int per_process = FILE_EVENTS_PER_PROCESS / 4;
    for (int p = 0; p < FILE_PROCESSES; p++) {
        children[p] = fork_child();
        if (children[p] == 0) {
            snprintf(sink_spec, sizeof sink_spec, "file:%s", path);
            if (activity_set_sink(sink_spec) != 0) _exit(3);
            int failures = produce_in_threads(2, per_process / 2, NULL);
            exit(failures == 0 ? 0 : 4);
        }
    }
    for (int p = 0; p < FILE_PROCESSES; p++) {
        int status = 0;
        waitpid(children[p], &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    int fd = open(path, O_RDONLY);
    CHECK(fd >= 0);
    size_t length = 0;
    char *text = read_all(fd, &length);
    close(fd);
    stream_stats s = stream_check(text, length);
    stream_print("file", &s);
    CHECK(stream_ok(&s));
    CHECK_EQ_INT(s.begins, FILE_PROCESSES * per_process);
    CHECK_EQ_INT(s.ends, FILE_PROCESSES * per_process);
    CHECK_EQ_INT(s.prefixes, FILE_PROCESSES);
    free(text);
    remove_tree(dir);
    free(dir);
}

/* ---- a listening unix socket that keeps each connection's bytes apart ---------------------- */

enum { MAX_CONNECTIONS = 16 };

typedef struct listener {
    int fd;
    int count;
    int fds[MAX_CONNECTIONS];
    pid_t pids[MAX_CONNECTIONS];
    bool closed[MAX_CONNECTIONS];
    char *text[MAX_CONNECTIONS];
    size_t length[MAX_CONNECTIONS], capacity[MAX_CONNECTIONS];
} listener;

static void listen_at(listener *l, const char *path)
{
    memset(l, 0, sizeof *l);
    l->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    snprintf(address.sun_path, sizeof address.sun_path, "%s", path);
    CHECK(bind(l->fd, (struct sockaddr *)&address, sizeof address) == 0);
    CHECK(listen(l->fd, 64) == 0);
}

/** Accepts and reads for up to wait_ms; returns whether anything happened. */
static bool listener_poll(listener *l, int wait_ms)
{
    struct pollfd fds[MAX_CONNECTIONS + 1];
    int map[MAX_CONNECTIONS + 1];
    int n = 0;
    fds[n] = (struct pollfd){l->fd, POLLIN, 0};
    map[n++] = -1;
    for (int c = 0; c < l->count; c++) {
        if (l->closed[c]) continue;
        fds[n] = (struct pollfd){l->fds[c], POLLIN, 0};
        map[n++] = c;
    }
    if (poll(fds, (nfds_t)n, wait_ms) <= 0) return false;
    for (int k = 0; k < n; k++) {
        if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        if (map[k] < 0) {
            int c = accept4(l->fd, NULL, NULL, SOCK_CLOEXEC);
            if (c < 0 || l->count == MAX_CONNECTIONS) continue;
            struct ucred credentials;
            socklen_t size = sizeof credentials;
            getsockopt(c, SOL_SOCKET, SO_PEERCRED, &credentials, &size);
            l->fds[l->count] = c;
            l->pids[l->count] = credentials.pid;
            l->capacity[l->count] = 1 << 16;
            l->text[l->count] = malloc(l->capacity[l->count] + 1);
            l->count++;
            continue;
        }
        int c = map[k];
        if (l->length[c] + 65536 > l->capacity[c]) {
            l->capacity[c] *= 2;
            l->text[c] = realloc(l->text[c], l->capacity[c] + 1);
        }
        ssize_t got = read(l->fds[c], l->text[c] + l->length[c], 65536);
        if (got > 0) {
            l->length[c] += (size_t)got;
        } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
            l->closed[c] = true;
            close(l->fds[c]);
        }
    }
    return true;
}

static int listener_open_connections(const listener *l)
{
    int open = 0;
    for (int c = 0; c < l->count; c++) open += !l->closed[c];
    return open;
}

static void listener_close(listener *l)
{
    close(l->fd);
    for (int c = 0; c < l->count; c++) {
        if (!l->closed[c]) close(l->fds[c]);
        free(l->text[c]);
    }
}

/* ---- 4 processes × 8 threads on one unix socket ------------------------------------------- */

static void unix_processes(void)
{
    char *dir = make_temp_dir();
    char path[600];
    snprintf(path, sizeof path, "%s/sink", dir);
    listener l;
    listen_at(&l, path);
    int per_thread = UNIX_EVENTS_PER_THREAD / 4;
    pid_t children[UNIX_PROCESSES];
    for (int p = 0; p < UNIX_PROCESSES; p++) {
        children[p] = fork_child();
        if (children[p] == 0) {
            close(l.fd);
            snprintf(sink_spec, sizeof sink_spec, "unix:%s", path);
            if (activity_set_sink(sink_spec) != 0) _exit(3);
            int failures = produce_in_threads(UNIX_THREADS, per_thread, NULL);
            exit(failures == 0 ? 0 : 4);
        }
    }
    int exited = 0;
    int64_t deadline = now_ms() + 120000;
    while ((exited < UNIX_PROCESSES || listener_open_connections(&l) > 0 || l.count < UNIX_PROCESSES) &&
           now_ms() < deadline) {
        listener_poll(&l, 50);
        int status;
        pid_t pid;
        while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
            exited++;
            CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        }
    }
    CHECK_EQ_INT(exited, UNIX_PROCESSES);
    CHECK_EQ_INT(l.count, UNIX_PROCESSES); /* one connection per process */
    size_t begins = 0, ends = 0;
    for (int c = 0; c < l.count; c++) {
        bool known = false;
        for (int p = 0; p < UNIX_PROCESSES; p++) known = known || l.pids[c] == children[p];
        CHECK(known);
        for (int d = 0; d < c; d++) CHECK(l.pids[d] != l.pids[c]);
        stream_stats s = stream_check(l.text[c], l.length[c]);
        stream_print("unix connection", &s);
        CHECK(stream_ok(&s));
        CHECK_EQ_INT(s.prefixes, 1); /* only its own process's events */
        CHECK_EQ_INT(s.begins, UNIX_THREADS * per_thread);
        begins += s.begins;
        ends += s.ends;
    }
    CHECK_EQ_INT(begins, UNIX_PROCESSES * UNIX_THREADS * per_thread);
    CHECK_EQ_INT(ends, UNIX_PROCESSES * UNIX_THREADS * per_thread);
    listener_close(&l);
    remove_tree(dir);
    free(dir);
}

/* ---- the reader goes away ----------------------------------------------------------------- */

static void check_signals_untouched(const sigset_t *mask_before)
{
    struct sigaction action;
    sigaction(SIGPIPE, NULL, &action);
    CHECK(action.sa_handler == SIG_DFL);
    sigset_t pending, mask;
    sigpending(&pending);
    CHECK(!sigismember(&pending, SIGPIPE));
    pthread_sigmask(SIG_SETMASK, NULL, &mask);
    CHECK(sigismember(&mask, SIGPIPE) == sigismember(mask_before, SIGPIPE));
}

static void reader_killed_pipe(void)
{
    sigset_t mask_before;
    pthread_sigmask(SIG_SETMASK, NULL, &mask_before);
    int fds[2];
    CHECK(pipe(fds) == 0);
    int flags_before = fcntl(fds[1], F_GETFL);
    pid_t reader_pid = fork_child();
    if (reader_pid == 0) {
        close(fds[1]);
        char buffer[2048];
        ssize_t got = read(fds[0], buffer, sizeof buffer); /* some lines, then die mid-stream */
        (void)got;
        raise(SIGKILL);
    }
    close(fds[0]);
    set_sink_fd(fds[1]);
    /* SIGPIPE keeps its default disposition, which would kill this process. */
    CHECK_EQ_INT(produce_in_threads(4, 1000, NULL), 0);
    int status = 0;
    waitpid(reader_pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    CHECK_EQ_INT(produce_in_threads(1, 100, NULL), 0);
    CHECK_EQ_INT(activity_flush(100), 0);
    check_signals_untouched(&mask_before);
    CHECK_EQ_INT(fcntl(fds[1], F_GETFL), flags_before);
    close(fds[1]);
}

static void reader_killed_socket(void)
{
    sigset_t mask_before;
    pthread_sigmask(SIG_SETMASK, NULL, &mask_before);
    char *dir = make_temp_dir();
    char path[600];
    snprintf(path, sizeof path, "%s/sink", dir);
    listener l;
    listen_at(&l, path);
    snprintf(sink_spec, sizeof sink_spec, "unix:%s", path);
    CHECK_EQ_INT(activity_set_sink(sink_spec), 0);
    activity *a = activity_begin(NULL, "before", 10, NULL);
    CHECK(a != NULL);
    listener_poll(&l, 1000);
    CHECK_EQ_INT(l.count, 1);
    listener_close(&l); /* the reader goes away without a word */
    CHECK_EQ_INT(produce_in_threads(4, 500, NULL), 0);
    CHECK_EQ_INT(activity_advance(a, 1), 0);
    CHECK_EQ_INT(activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL), 0);
    check_signals_untouched(&mask_before);
    remove_tree(dir);
    free(dir);
}

/* ---- the reader stalls -------------------------------------------------------------------- */

static void reader_stalled(void)
{
    /* Read before the library's first use, like every setting from the environment. */
    setenv("ACTIVITY_TIMEOUT_MS", "200", 1);
    int fds[2];
    CHECK(pipe(fds) == 0);
    int flags_before = fcntl(fds[1], F_GETFL);
    set_sink_fd(fds[1]);
    activity *hot = activity_begin(NULL, "hot", -1, NULL);
    CHECK(hot != NULL);
    /* Nobody reads: the pipe fills up, then begin and end give up after the timeout once and
       do not wait again while the reader stays stalled. */
    int64_t start = now_ms();
    for (int k = 0; k < 2000; k++) {
        activity *a = activity_begin(NULL, "filling the pipe with a title long enough to fill it soon", 100, NULL);
        CHECK(a != NULL);
        CHECK_EQ_INT(activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL), 0);
        CHECK_EQ_INT(activity_log(NULL, ACTIVITY_LEVEL_INFO, "still here"), 0);
    }
    int64_t elapsed = now_ms() - start;
    fprintf(stderr, "6000 events into a stalled pipe took %lld ms\n", (long long)elapsed);
    /* One timeout, not one per event (that would be 1200 s); generous for a loaded machine. */
    CHECK(elapsed < 75 * 200);
    /* The hot path never waits. */
    for (int k = 0; k < 1000000; k++) activity_advance(hot, 1);
    CHECK_EQ_INT(activity_flush(0), -ETIMEDOUT);
    CHECK_EQ_INT(fcntl(fds[1], F_GETFL), flags_before);

    /* The reader comes back: once a line goes through, events flow again. */
    int read_flags = fcntl(fds[0], F_GETFL);
    fcntl(fds[0], F_SETFL, read_flags | O_NONBLOCK);
    char buffer[65536];
    while (read(fds[0], buffer, sizeof buffer) > 0) {
    }
    activity *after = activity_begin(NULL, "after the stall", 1, NULL);
    activity_advance(after, 1);
    CHECK_EQ_INT(activity_end(after, ACTIVITY_STATUS_SUCCESS, NULL), 0);
    CHECK_EQ_INT(activity_end(hot, ACTIVITY_STATUS_SUCCESS, NULL), 0);
    close(fds[1]);
    fcntl(fds[0], F_SETFL, read_flags);
    size_t length = 0;
    char *text = read_all(fds[0], &length);
    close(fds[0]);
    CHECK(strstr(text, "\"title\":\"after the stall\"") != NULL);
    CHECK(strstr(text, "\"completed\":1000000") != NULL);
    const char *begin = strstr(text, "\"title\":\"after the stall\"");
    CHECK(begin && strstr(begin, "\"type\":\"end\"") != NULL);
    free(text);
}

static void reader_stalled_socket(void)
{
    setenv("ACTIVITY_TIMEOUT_MS", "200", 1);
    char *dir = make_temp_dir();
    char path[600];
    snprintf(path, sizeof path, "%s/sink", dir);
    listener l;
    listen_at(&l, path);
    snprintf(sink_spec, sizeof sink_spec, "unix:%s", path);
    CHECK_EQ_INT(activity_set_sink(sink_spec), 0);
    /* The reader accepts, then reads nothing while the socket buffer fills up. */
    int64_t start = now_ms();
    for (int k = 0; k < 20000; k++) {
        activity *a = activity_begin(NULL, "filling the socket buffer with a title of some length, and then some", 9, NULL);
        CHECK_EQ_INT(activity_end(a, ACTIVITY_STATUS_SUCCESS, "a message to make the line longer still"), 0);
    }
    int64_t elapsed = now_ms() - start;
    fprintf(stderr, "40000 events into a stalled socket took %lld ms\n", (long long)elapsed);
    CHECK(elapsed < 75 * 200);
    /* The reader wakes up: what it gets is whole lines only (a line the socket took only part
       of is completed before any other), and new events flow again. */
    while (listener_poll(&l, 100)) {
    }
    activity *after = activity_begin(NULL, "after the stall", 1, NULL);
    activity_advance(after, 1);
    CHECK_EQ_INT(activity_end(after, ACTIVITY_STATUS_SUCCESS, NULL), 0);
    while (listener_poll(&l, 200)) {
    }
    CHECK_EQ_INT(l.count, 1);
    if (l.count == 1) {
        l.text[0][l.length[0]] = '\0';
        stream_stats s = stream_check(l.text[0], l.length[0]);
        stream_print("stalled socket", &s);
        CHECK_EQ_INT(s.bad_lines, 0);
        CHECK_EQ_INT(s.out_of_order, 0);
        /* A unix socket holds only some dozens of short lines (each costs a whole buffer's
           worth of accounting); the rest were dropped after the one timeout. */
        CHECK(s.begins > 10 && s.begins < 20000);
        CHECK(strstr(l.text[0], "\"title\":\"after the stall\"") != NULL);
    }
    listener_close(&l);
    remove_tree(dir);
    free(dir);
}

typedef struct slow_reader {
    int fd;
    char *text;
    size_t length, capacity;
} slow_reader;

static void *read_slowly(void *argument)
{
    slow_reader *r = argument;
    for (;;) {
        if (r->length + 512 > r->capacity) {
            r->capacity = r->capacity * 2 + 4096;
            r->text = realloc(r->text, r->capacity + 1);
        }
        ssize_t got = read(r->fd, r->text + r->length, 512);
        if (got <= 0) break;
        r->length += (size_t)got;
        usleep(200);
    }
    return NULL;
}

static void partial_lines_socket(void)
{
    /* A socket with a tiny send buffer takes long lines in pieces: the library must finish each
       line before it starts another, so the reader never sees a torn one. */
    setenv("ACTIVITY_TIMEOUT_MS", "2000", 1);
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    int small = 1; /* the kernel rounds it up to its minimum */
    setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    set_sink_fd(sv[1]);
    slow_reader r = {sv[0], NULL, 0, 0};
    pthread_t thread;
    pthread_create(&thread, NULL, read_slowly, &r);
    char message[3800];
    memset(message, 'x', sizeof message - 1);
    message[sizeof message - 1] = '\0';
    activity *a = activity_begin(NULL, "long lines", 300, NULL);
    for (int k = 0; k < 300; k++) {
        message[k % 100] = (char)('a' + k % 26);
        CHECK_EQ_INT(activity_log(a, ACTIVITY_LEVEL_INFO, message), 0);
        activity_advance(a, 1);
    }
    CHECK_EQ_INT(activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL), 0);
    CHECK_EQ_INT(activity_flush(2000), 0);
    shutdown(sv[1], SHUT_WR);
    pthread_join(thread, NULL);
    stream_stats s = stream_check(r.text ? r.text : "", r.length);
    stream_print("partial lines", &s);
    CHECK(stream_ok(&s));
    CHECK_EQ_INT(s.logs, 300); /* the reader kept up within the timeout: nothing dropped */
    free(r.text);
    close(sv[0]);
    close(sv[1]);
}

/* ---- fork ---------------------------------------------------------------------------------- */

/** The id prefix of a stream's first line, for telling processes apart. */
static void first_prefix(const char *text, char out[17])
{
    out[0] = '\0';
    const char *id = text ? strstr(text, "\"id\":\"") : NULL;
    if (id) snprintf(out, 17, "%s", id + 6);
}

/** The producer threads and activities per thread of a fork scenario: few in repeated runs. */
static int fork_threads(void)
{
    return harness_quick() ? 2 : 4;
}

static int fork_activities(int full)
{
    return harness_quick() ? 5 : full;
}

/** The text of the connection from process pid (NUL-terminated), or NULL. */
static const char *text_from(listener *l, pid_t pid)
{
    for (int c = 0; c < l->count; c++) {
        if (l->pids[c] != pid) continue;
        l->text[c][l->length[c]] = '\0';
        return l->text[c];
    }
    return NULL;
}

static void fork_unix(void)
{
    char *dir = make_temp_dir();
    char path[600];
    snprintf(path, sizeof path, "%s/sink", dir);
    listener l;
    listen_at(&l, path);
    snprintf(sink_spec, sizeof sink_spec, "unix:%s", path);
    CHECK_EQ_INT(activity_set_sink(sink_spec), 0);
    activity *parent = activity_begin(NULL, "parent", 10, NULL);
    pid_t child = fork_child();
    if (child == 0) {
        close(l.fd);
        /* The inherited handle is inert here: nothing of it reaches any stream. */
        activity_advance(parent, 5);
        activity_set_message(parent, "from the child");
        activity_log(parent, ACTIVITY_LEVEL_INFO, "a log of the child, without the parent's id");
        activity_end(parent, ACTIVITY_STATUS_FAILURE, "the child must not end it");
        int failures = produce_in_threads(fork_threads(), fork_activities(100), NULL);
        exit(failures == 0 ? 0 : 4);
    }
    int produced = fork_threads() * fork_activities(100);
    activity_advance(parent, 1);
    int status = 0;
    int64_t deadline = now_ms() + 30000;
    bool child_done = false;
    while (now_ms() < deadline && (!child_done || l.count < 2 || listener_open_connections(&l) > 1)) {
        listener_poll(&l, 5); /* short: the child's exit is seen only between polls */
        if (!child_done && waitpid(child, &status, WNOHANG) == child) child_done = true;
    }
    CHECK(child_done && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    activity_advance(parent, 1);
    CHECK_EQ_INT(activity_end(parent, ACTIVITY_STATUS_SUCCESS, NULL), 0);
    /* Until the parent's end has arrived (its connection stays open). */
    for (deadline = now_ms() + 30000; now_ms() < deadline;) {
        const char *mine = text_from(&l, getpid());
        if (mine && strstr(mine, "\"type\":\"end\"")) break;
        listener_poll(&l, 50);
    }
    CHECK_EQ_INT(l.count, 2);
    int child_connection = l.pids[0] == child ? 0 : 1;
    int parent_connection = 1 - child_connection;
    CHECK(l.pids[child_connection] == child);
    CHECK(l.pids[parent_connection] == getpid());
    l.text[child_connection][l.length[child_connection]] = '\0';
    l.text[parent_connection][l.length[parent_connection]] = '\0';
    stream_stats c = stream_check(l.text[child_connection], l.length[child_connection]);
    stream_print("child connection", &c);
    CHECK(stream_ok(&c));
    CHECK_EQ_INT(c.prefixes, 1);
    CHECK_EQ_INT(c.begins, produced);
    CHECK_EQ_INT(c.logs, 2 * produced + 1);
    CHECK(strstr(l.text[child_connection], "\"title\":\"parent\"") == NULL);
    CHECK(strstr(l.text[child_connection], "must not end it") == NULL);
    /* The parent's stream: its activity with its whole life, and nothing of the child. */
    const char *p = l.text[parent_connection];
    CHECK(strstr(p, "\"title\":\"parent\"") != NULL);
    CHECK(strstr(p, "\"status\":\"success\",\"completed\":2,\"total\":10") != NULL);
    CHECK(strstr(p, "from the child") == NULL);
    char child_prefix[17], parent_prefix[17];
    first_prefix(l.text[child_connection], child_prefix);
    first_prefix(p, parent_prefix);
    CHECK(strcmp(child_prefix, parent_prefix) != 0); /* the child drew its own id prefix */
    stream_stats s = stream_check(p, l.length[parent_connection]);
    stream_print("parent connection", &s);
    CHECK(stream_ok(&s));
    CHECK_EQ_INT(s.begins, 1);
    listener_close(&l);
    remove_tree(dir);
    free(dir);
}

static void fork_fd(void)
{
    /* The reader is a process of its own, forked first, so that at each fork below the only
       other thread is the library's idle flusher (sanitizer runtimes need that much). */
    char *dir = make_temp_dir();
    char path[600];
    snprintf(path, sizeof path, "%s/captured", dir);
    int fds[2];
    CHECK(pipe(fds) == 0);
    pid_t reader_pid = fork_child();
    if (reader_pid == 0) {
        close(fds[1]);
        size_t length = 0;
        char *text = read_all(fds[0], &length);
        int out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ssize_t written = write(out, text, length);
        _exit(written == (ssize_t)length ? 0 : 5);
    }
    close(fds[0]);
    set_sink_fd(fds[1]);
    activity *shared = activity_begin(NULL, "parent", -1, NULL);
    pid_t children[2];
    for (int k = 0; k < 2; k++) {
        children[k] = fork_child();
        if (children[k] == 0) {
            /* The parent's handle is inert here; its id may still name a parent. */
            activity_advance(shared, 100);
            activity_end(shared, ACTIVITY_STATUS_FAILURE, "the child must not end it");
            int failures = produce_in_threads(fork_threads(), fork_activities(250), NULL);
            exit(failures == 0 ? 0 : 4);
        }
    }
    int produced = fork_threads() * fork_activities(250);
    CHECK_EQ_INT(produce_in_threads(fork_threads(), fork_activities(250), shared), 0);
    for (int k = 0; k < 2; k++) {
        int status = 0;
        waitpid(children[k], &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    CHECK_EQ_INT(activity_end(shared, ACTIVITY_STATUS_SUCCESS, NULL), 0);
    close(fds[1]);
    int status = 0;
    waitpid(reader_pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    int fd = open(path, O_RDONLY);
    size_t length = 0;
    char *text = read_all(fd, &length);
    close(fd);
    stream_stats s = stream_check(text, length);
    stream_print("fd after fork", &s);
    CHECK(stream_ok(&s));
    CHECK_EQ_INT(s.prefixes, 3);
    CHECK_EQ_INT(s.begins, 1 + 3 * produced);
    CHECK_EQ_INT(s.ends, 1 + 3 * produced);
    char advanced[64]; /* once per activity of the parent */
    snprintf(advanced, sizeof advanced, "\"status\":\"success\",\"completed\":%d}", produced);
    CHECK(strstr(text, advanced) != NULL);
    CHECK(strstr(text, "must not end it") == NULL);
    free(text);
    remove_tree(dir);
    free(dir);
}

int main(int argc, char **argv)
{
    static const scenario scenarios[] = {
        {"pipe_threads", pipe_threads, false},
        {"file_processes", file_processes, false},
        {"unix_processes", unix_processes, false},
        {"reader_killed_pipe", reader_killed_pipe, false},
        {"reader_killed_socket", reader_killed_socket, false},
        {"reader_stalled", reader_stalled, false},
        {"reader_stalled_socket", reader_stalled_socket, false},
        {"partial_lines_socket", partial_lines_socket, false},
        {"fork_unix", fork_unix, true},
        {"fork_fd", fork_fd, true},
    };
    return harness_main(argc, argv, scenarios, sizeof scenarios / sizeof scenarios[0]);
}
