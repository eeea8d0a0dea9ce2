/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sink: parsing ACTIVITY_SINK, opening it lazily, and writing whole lines to it without ever
 * hurting the producer. No SIGPIPE (SEND_NO_SIGNAL on sockets; on pipes SIGPIPE is blocked in the
 * writing thread and a pending one it caused is consumed), no changed fd flags (poll before
 * write; send(MSG_DONTWAIT) on sockets), a bounded wait for a stalled reader, and a new
 * connection in a forked child.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "sink.h"
#include "diagnostics.h"
#include "ids.h"

enum { STATE_UNCONFIGURED = 0, STATE_OFF = 1, STATE_ON = 2 };
enum sink_kind { KIND_NONE, KIND_FD, KIND_FILE, KIND_UNIX };

/** A parsed sink spec. */
typedef struct sink_spec {
    enum sink_kind kind;
    int fd;
    char *path;
    bool numbered;         /* fd:N, whose descriptor is checked before use (stdout and stderr are not) */
    bool from_environment; /* ACTIVITY_SINK rather than activity_set_sink(), for messages */
} sink_spec;

static _Atomic int state = STATE_UNCONFIGURED;
static _Atomic uint64_t epoch = 1;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int timeout_ms = 1000;
static char parent_id[129];

/* Everything below is guarded by lock. */
static sink_spec spec = {KIND_NONE, -1, NULL, false, false};
static int fd = -1;            /* the descriptor written to; -1 until opened */
static bool owned;             /* whether fd is ours to close */
static bool is_socket;         /* send(SEND_NO_SIGNAL | MSG_DONTWAIT) */
static bool is_regular;        /* never blocks: no poll, no SIGPIPE */
static pid_t opened_by;        /* the process that opened fd */
static bool stalled;           /* a line timed out: wait no more until one goes through */
static char tail[LINE_MAX_BYTES];
static size_t tail_length, tail_offset; /* the rest of a line a socket took only part of */

#ifdef ACTIVITY_TEST_SHORT_WRITES
/* Test builds only (make check-tsan, check-asan): sockets take a line in small pieces, so that a
   reader stalling mid-line exercises the completion of cut lines. */
enum { SOCKET_PIECE = 61 };
#else
enum { SOCKET_PIECE = LINE_MAX_BYTES };
#endif

/** Whether the current thread has SIGPIPE blocked for good (the flusher thread). */
static _Thread_local bool thread_blocks_sigpipe;

static void initialize(void)
{
    const char *timeout = getenv("ACTIVITY_TIMEOUT_MS");
    if (timeout && *timeout) {
        char *end = NULL;
        errno = 0;
        long value = strtol(timeout, &end, 10);
        if (errno == 0 && end && *end == '\0' && value >= 0 && value <= 60000) {
            timeout_ms = (int)value;
        } else {
            char shown[VISIBLE_SIZE];
            complain("libactivity: ACTIVITY_TIMEOUT_MS=\"%s\" is not a number of milliseconds from 0 to "
                     "60000; using 1000\n",
                     visible(timeout, shown, sizeof shown));
        }
    }
    const char *parent = getenv("ACTIVITY_PARENT");
    if (parent && *parent) {
        if (ids_is_valid(parent)) {
            snprintf(parent_id, sizeof parent_id, "%s", parent);
        } else {
            char shown[VISIBLE_SIZE];
            complain("libactivity: ACTIVITY_PARENT=\"%s\" is not an activity id (1 to 128 bytes of "
                     "[A-Za-z0-9._:@/+-]); ignored\n",
                     visible(parent, shown, sizeof shown));
        }
    }
}

static void free_spec(sink_spec *s)
{
    free(s->path);
    s->path = NULL;
}

/** Parses spec text; 0, -ENAMETOOLONG for a unix: path longer than SOCKET_PATH_MAX, or -EINVAL
    (then out is untouched). */
static int parse(const char *text, sink_spec *out)
{
    sink_spec s = {KIND_NONE, -1, NULL, false, false};
    if (strcmp(text, "none") == 0) {
        s.kind = KIND_NONE;
    } else if (strcmp(text, "stdout") == 0) {
        s.kind = KIND_FD;
        s.fd = STDOUT_FILENO;
    } else if (strcmp(text, "stderr") == 0) {
        s.kind = KIND_FD;
        s.fd = STDERR_FILENO;
    } else if (strncmp(text, "fd:", 3) == 0) {
        const char *digits = text + 3;
        if (*digits < '0' || *digits > '9') return -EINVAL;
        char *end = NULL;
        errno = 0;
        long value = strtol(digits, &end, 10);
        if (errno != 0 || *end != '\0' || value < 0 || value > INT_MAX) return -EINVAL;
        s.kind = KIND_FD;
        s.fd = (int)value;
        s.numbered = true;
    } else if (strncmp(text, "file:", 5) == 0 && text[5] != '\0') {
        s.kind = KIND_FILE;
        s.path = strdup(text + 5);
        if (!s.path) return -ENOMEM;
    } else if (strncmp(text, "unix:", 5) == 0 && text[5] != '\0') {
        if (strlen(text + 5) > SOCKET_PATH_MAX) return -ENAMETOOLONG;
        s.kind = KIND_UNIX;
        s.path = strdup(text + 5);
        if (!s.path) return -ENOMEM;
    } else {
        return -EINVAL;
    }
    *out = s;
    return 0;
}

/** Forgets the open descriptor (closing it when it is ours) and any unfinished line. */
static void close_locked(void)
{
    if (fd >= 0 && owned) close(fd);
    fd = -1;
    owned = false;
    tail_length = tail_offset = 0;
    stalled = false;
}

/** Installs a parsed spec; lock held. */
static void install_locked(sink_spec s)
{
    close_locked();
    free_spec(&spec);
    spec = s;
    atomic_fetch_add(&epoch, 1);
    atomic_store_explicit(&state, s.kind == KIND_NONE ? STATE_OFF : STATE_ON, memory_order_release);
}

/** Turns reporting off for good (until activity_set_sink()); lock held. */
static void turn_off_locked(void)
{
    close_locked();
    atomic_store_explicit(&state, STATE_OFF, memory_order_release);
}

static void configure_from_environment(void)
{
    pthread_once(&once, initialize);
    pthread_mutex_lock(&lock);
    if (atomic_load(&state) == STATE_UNCONFIGURED) {
        const char *text = getenv("ACTIVITY_SINK");
        sink_spec s = {KIND_NONE, -1, NULL, false, false};
        int parsed = text && *text ? parse(text, &s) : 0;
        char shown[VISIBLE_SIZE];
        if (parsed == -ENAMETOOLONG) {
            /* Said as it is: the spec is well formed, the path is what the system cannot take. */
            complain("libactivity: ACTIVITY_SINK=\"%s\": the socket path is %zu bytes; the system allows %zu; "
                     "reporting is off\n",
                     visible(text, shown, sizeof shown), strlen(text + 5), SOCKET_PATH_MAX);
            s.kind = KIND_NONE;
        } else if (parsed != 0) {
            complain("libactivity: ACTIVITY_SINK=\"%s\" is not a sink (expected unix:PATH, fd:N, file:PATH, "
                     "stdout, stderr or none); reporting is off\n",
                     visible(text, shown, sizeof shown));
            s.kind = KIND_NONE;
        }
        s.from_environment = true;
        install_locked(s);
    }
    pthread_mutex_unlock(&lock);
}

bool sink_enabled(void)
{
    int s = atomic_load_explicit(&state, memory_order_acquire);
    if (__builtin_expect(s == STATE_UNCONFIGURED, 0)) {
        configure_from_environment();
        s = atomic_load_explicit(&state, memory_order_acquire);
    }
    return s == STATE_ON;
}

uint64_t sink_epoch(void)
{
    return atomic_load_explicit(&epoch, memory_order_acquire);
}

void sink_read_environment(void)
{
    pthread_once(&once, initialize);
}

int sink_timeout_ms(void)
{
    pthread_once(&once, initialize);
    return timeout_ms;
}

const char *sink_parent_id(void)
{
    pthread_once(&once, initialize);
    return parent_id[0] ? parent_id : NULL;
}

static bool open_locked(int64_t deadline);

int sink_set(const char *text)
{
    pthread_once(&once, initialize);
    sink_spec s;
    int result = parse(text, &s);
    if (result == -ENAMETOOLONG) return -EINVAL; /* a malformed spec to the caller, as activity.h says */
    if (result != 0) return result;
    pthread_mutex_lock(&lock);
    install_locked(s);
    /* The caller vouches for fd:N now, not at some later first event: check it while it is
       surely the descriptor meant. */
    if (s.numbered && !open_locked(monotonic_ms())) turn_off_locked();
    pthread_mutex_unlock(&lock);
    return 0;
}

static void classify_locked(void)
{
    struct stat st;
    is_socket = is_regular = false;
    if (fstat(fd, &st) == 0) {
        is_socket = S_ISSOCK(st.st_mode);
        is_regular = S_ISREG(st.st_mode);
    }
}

/** Connects to a unix socket, waiting until deadline while its backlog is full. */
static bool connect_unix_locked(int64_t deadline)
{
    int s = unix_socket();
    if (s < 0) return false;
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    memcpy(address.sun_path, spec.path, strlen(spec.path) + 1);
    for (;;) {
        if (connect(s, (struct sockaddr *)&address, sizeof address) == 0) break;
        int error = errno;
        if (error == EINTR) continue;
        if ((error == EAGAIN || error == EINPROGRESS) && monotonic_ms() < deadline) {
            if (error == EINPROGRESS) {
                struct pollfd p = {s, POLLOUT, 0};
                poll(&p, 1, (int)(deadline - monotonic_ms()));
                int so_error = 0;
                socklen_t size = sizeof so_error;
                if (getsockopt(s, SOL_SOCKET, SO_ERROR, &so_error, &size) == 0 && so_error == 0) break;
                error = so_error;
            } else {
                poll(NULL, 0, 5); /* the listener's backlog is full */
                continue;
            }
        }
        if (error != ECONNREFUSED && error != ENOENT && error != EAGAIN && error != EINPROGRESS) {
            /* A reader that has gone away is not worth a message; anything else is. */
            char shown[VISIBLE_SIZE];
            complain("libactivity: cannot connect to unix:%s: %s; reporting is off\n",
                     visible(spec.path, shown, sizeof shown), strerror(error));
        }
        close(s);
        return false;
    }
    fd = s;
    owned = true;
    return true;
}

/**
 * Whether descriptor n may receive events, else why not. An fd:N sink names a number, and by the
 * time of the first event the program may have closed N and opened a data file that got the same
 * number: events would be written into it. So only what is plainly a stream is taken: a pipe, a
 * socket, a terminal, or a regular file opened for appending (3>>events.jsonl; a data file is
 * seldom opened that way).
 */
static bool descriptor_takes_events(int n, char *why, size_t size)
{
    struct stat st;
    int flags = fcntl(n, F_GETFL);
    if (flags < 0 || fstat(n, &st) != 0) {
        snprintf(why, size, "is not open");
        return false;
    }
    if ((flags & O_ACCMODE) == O_RDONLY) {
        snprintf(why, size, "is open for reading only");
        return false;
    }
    if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) return true;
    if (S_ISCHR(st.st_mode)) {
        if (isatty(n)) return true;
        snprintf(why, size, "is a character device that is not a terminal");
        return false;
    }
    if (S_ISREG(st.st_mode)) {
        if (flags & O_APPEND) return true;
        snprintf(why, size,
                 "is a regular file not opened for appending (O_APPEND), so it may be a file of the "
                 "program's own (append with %d>>FILE)",
                 n);
        return false;
    }
    snprintf(why, size, "is not a pipe, socket, terminal or file");
    return false;
}

/** Opens the sink if it is not open yet; false turns reporting off. Lock held. */
static bool open_locked(int64_t deadline)
{
    pid_t pid = getpid();
    if (fd >= 0 && opened_by != pid) {
        /* Forked without pthread_atfork handlers running (a raw fork): do what they would. */
        if (owned) close(fd);
        fd = -1;
        owned = false;
        tail_length = tail_offset = 0;
        stalled = false;
    }
    if (fd >= 0) return true;
    switch (spec.kind) {
    case KIND_NONE:
        return false;
    case KIND_FD:
        if (spec.numbered) {
            char why[200];
            if (!descriptor_takes_events(spec.fd, why, sizeof why)) {
                if (spec.from_environment)
                    complain("libactivity: ACTIVITY_SINK=fd:%d: descriptor %d %s; reporting is off\n", spec.fd,
                             spec.fd, why);
                else
                    complain("libactivity: activity_set_sink(\"fd:%d\"): descriptor %d %s; reporting is off\n",
                             spec.fd, spec.fd, why);
                return false;
            }
        } else if (fcntl(spec.fd, F_GETFD) < 0) {
            return false; /* stdout or stderr closed: nobody is listening */
        }
        fd = spec.fd;
        owned = false;
        break;
    case KIND_FILE:
        fd = open(spec.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
        if (fd < 0) {
            int error = errno;
            char shown[VISIBLE_SIZE];
            complain("libactivity: cannot open file:%s: %s; reporting is off\n",
                     visible(spec.path, shown, sizeof shown), strerror(error));
            return false;
        }
        owned = true;
        break;
    case KIND_UNIX:
        if (!connect_unix_locked(deadline)) return false;
        break;
    }
    opened_by = pid;
    classify_locked();
    return true;
}

/** write(2) that cannot raise SIGPIPE: blocked around the call, and a pending one it caused consumed. */
static ssize_t write_without_sigpipe(const char *bytes, size_t length)
{
    if (is_regular || thread_blocks_sigpipe) return write(fd, bytes, length);
    sigset_t pipe_set, old, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    sigemptyset(&pending);
    sigpending(&pending);
    bool was_pending = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    ssize_t n = write(fd, bytes, length);
    int error = errno;
    if (n < 0 && error == EPIPE && !was_pending) consume_pending_sigpipe(&pipe_set);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = error;
    return n;
}

/**
 * Writes bytes until deadline; returns how many went out, or -1 when the reader has gone away
 * (or the descriptor is unusable). Never changes the descriptor's flags.
 */
static ssize_t write_until_locked(const char *bytes, size_t length, int64_t deadline)
{
    size_t done = 0;
    while (done < length) {
        int64_t remaining = deadline - monotonic_ms();
        if (remaining < 0) remaining = 0;
        if (!is_regular) {
            struct pollfd p = {fd, POLLOUT, 0};
            int ready = poll(&p, 1, (int)remaining);
            if (ready < 0) {
                if (errno == EINTR) continue;
                return -1;
            }
            if (ready == 0) break; /* the reader is not reading */
            if (p.revents & POLLNVAL) {
                errno = EBADF;
                return -1;
            }
        }
        size_t piece = length - done;
        if (is_socket && piece > SOCKET_PIECE) piece = SOCKET_PIECE;
        ssize_t n = is_socket ? send(fd, bytes + done, piece, SEND_NO_SIGNAL | MSG_DONTWAIT)
                              : write_without_sigpipe(bytes + done, piece);
        if (n > 0) {
            done += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (remaining == 0) break;
            poll(NULL, 0, 1); /* writable by poll yet not by write: do not spin */
            continue;
        }
        return -1; /* EPIPE, ECONNRESET, EBADF, ENOSPC, EIO, …: reporting turns off */
    }
    return (ssize_t)done;
}

/**
 * Says why writing failed, once (reporting then turns off): a reader that has gone away (EPIPE,
 * ECONNRESET) is not worth a message; a destination that fails the write (ENOSPC on a full disk,
 * EIO) is, with the sink and the system's reason. Lock held.
 */
static void complain_write_failed_locked(int error)
{
    if (error == EPIPE || error == ECONNRESET) return;
    char where[VISIBLE_SIZE + 16];
    char shown[VISIBLE_SIZE];
    switch (spec.kind) {
    case KIND_FILE: snprintf(where, sizeof where, "file:%s", visible(spec.path, shown, sizeof shown)); break;
    case KIND_UNIX: snprintf(where, sizeof where, "unix:%s", visible(spec.path, shown, sizeof shown)); break;
    default:
        if (spec.numbered) snprintf(where, sizeof where, "fd:%d", spec.fd);
        else snprintf(where, sizeof where, "%s", spec.fd == STDERR_FILENO ? "stderr" : "stdout");
        break;
    }
    if (spec.from_environment)
        complain("libactivity: cannot write to ACTIVITY_SINK=\"%s\": %s; reporting is off\n", where, strerror(error));
    else
        complain("libactivity: cannot write to activity_set_sink(\"%s\"): %s; reporting is off\n", where,
                 strerror(error));
}

/** Completes a line a socket took only part of; true when none is left. Lock held. */
static bool drain_locked(int64_t deadline, bool *gone)
{
    if (tail_length == 0) return true;
    ssize_t n = write_until_locked(tail + tail_offset, tail_length - tail_offset, deadline);
    if (n < 0) {
        complain_write_failed_locked(errno);
        *gone = true;
        return false;
    }
    tail_offset += (size_t)n;
    if (tail_offset < tail_length) return false;
    tail_length = tail_offset = 0;
    return true;
}

static bool lock_sink(bool may_block)
{
    if (may_block) {
        pthread_mutex_lock(&lock);
        return true;
    }
    return pthread_mutex_trylock(&lock) == 0;
}

sink_result sink_write(const char *line, size_t length, int wait_ms, bool may_block, uint64_t expected)
{
    if (!lock_sink(may_block)) return SINK_BUSY;
    sink_result result = SINK_OFF;
    if (atomic_load(&state) != STATE_ON) goto done;
    if (expected != 0 && expected != atomic_load(&epoch)) goto done;
    if (stalled || wait_ms < 0) wait_ms = 0;
    int64_t deadline = monotonic_ms() + wait_ms;
    if (!open_locked(deadline)) {
        turn_off_locked();
        goto done;
    }
    bool gone = false;
    if (!drain_locked(deadline, &gone)) {
        if (gone) turn_off_locked();
        else stalled = stalled || wait_ms > 0;
        result = gone ? SINK_OFF : SINK_DROPPED;
        goto done;
    }
    ssize_t n = write_until_locked(line, length, deadline);
    if (n < 0) {
        complain_write_failed_locked(errno);
        turn_off_locked();
        goto done;
    }
    if (n == 0) {
        /* Timed out with nothing written: the line is dropped and, until a line goes through,
           later ones do not wait, so a stalled reader costs one timeout, not one per event. */
        if (wait_ms > 0) stalled = true;
        result = SINK_DROPPED;
        goto done;
    }
    if ((size_t)n < length) {
        /* A socket took part of the line: the rest goes out before anything else. */
        memcpy(tail, line + n, length - (size_t)n);
        tail_length = length - (size_t)n;
        tail_offset = 0;
        if (wait_ms > 0) stalled = true;
    } else {
        stalled = false;
    }
    result = SINK_WRITTEN;
done:
    pthread_mutex_unlock(&lock);
    return result;
}

bool sink_drain(int wait_ms, bool may_block)
{
    if (!lock_sink(may_block)) return false;
    bool done = true;
    if (atomic_load(&state) == STATE_ON && fd >= 0 && opened_by == getpid()) {
        bool gone = false;
        done = drain_locked(monotonic_ms() + (wait_ms < 0 ? 0 : wait_ms), &gone);
        if (gone) {
            turn_off_locked();
            done = true;
        }
    }
    pthread_mutex_unlock(&lock);
    return done;
}

int sink_control_dup(uint64_t *current)
{
    int copy = -1;
    pthread_mutex_lock(&lock);
    *current = atomic_load(&epoch);
    /* Connected here (not inherited): the socket is this process's own conversation. */
    if (spec.kind != KIND_UNIX) copy = -2;
    else if (atomic_load(&state) == STATE_ON && fd >= 0 && opened_by == getpid()) copy = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    pthread_mutex_unlock(&lock);
    return copy;
}

/** For the flusher thread: SIGPIPE stays blocked there, so its writes skip the dance. */
void sink_thread_blocks_sigpipe(void)
{
    thread_blocks_sigpipe = true;
}

void sink_after_fork_in_child(void)
{
    /* Locks may have been held by threads that do not exist here: make them anew. */
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    memcpy(&lock, &fresh, sizeof fresh);
    /* The parent's connection and file stay the parent's: this process opens its own. Its
       handles from the parent belong to another epoch and fall silent. */
    if (fd >= 0 && owned) close(fd);
    fd = -1;
    owned = false;
    tail_length = tail_offset = 0;
    stalled = false;
    atomic_fetch_add(&epoch, 1);
}
