/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The control direction: cancel lines a consumer sends back, read by the flusher thread between
 * its flushes. The channel is the unix: sink's own connection (read through a duplicate of its
 * descriptor, so the sink may close its own at any time), or, for other sinks, ACTIVITY_CONTROL:
 * fd:N or unix:PATH. The caller's descriptor is never changed: a pipe is read through a
 * description of our own with O_NONBLOCK (open_own_description: /proc/self/fd/N, Linux only), a
 * socket with MSG_DONTWAIT.
 *
 * The channel's state is touched by the flusher thread alone, inside its busy window
 * (control_hooks.set_busy), so fork() never catches it half-changed; the cancel handlers are called
 * outside that window, one at a time, and activity_end() waits for a running one (control_close).
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "control.h"
#include "diagnostics.h"
#include "ids.h"
#include "sink.h"

enum source { SOURCE_SINK, SOURCE_NONE, SOURCE_FD, SOURCE_UNIX };

/** Room for the cancels of one read: a cancel line is at least 34 bytes. */
enum { CHUNK = 1024, PENDING = CHUNK / 32 };

static struct {
    enum source source;    /* ACTIVITY_CONTROL, for sinks that are not unix: */
    int given_fd;          /* fd:N */
    char path[108];        /* unix:PATH */
    int fd;                /* what is read; -1: nothing open */
    bool owned;            /* fd is ours to close */
    bool is_socket;
    bool from_sink;        /* fd duplicates the sink's connection of `epoch` */
    uint64_t epoch;        /* the sink epoch the channel was chosen for; 0: not chosen */
    bool finished;         /* the channel closed or failed: nothing more comes (until the sink changes) */
    char line[LINE_MAX_BYTES];
    size_t used;
    bool skipping;         /* inside a line too long to be a control line */
} control = {.source = SOURCE_SINK, .given_fd = -1, .fd = -1};

/** Control lines ignored: not a cancel this version knows, or a cancel for an activity that is not
    cancellable, not open, not this process's own, or already cancelled. */
static _Atomic unsigned long ignored;

static pthread_mutex_t dispatch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t dispatch_done = PTHREAD_COND_INITIALIZER;
static control_target *dispatching; /* whose handler runs now */
static _Thread_local bool in_handler;
static control_hooks hooks; /* activity.c's, set before the first activity */

static int configure(const char *text)
{
    if (!text || !*text) return 0;
    if (strncmp(text, "fd:", 3) == 0 && text[3] >= '0' && text[3] <= '9') {
        char *end = NULL;
        errno = 0;
        long value = strtol(text + 3, &end, 10);
        if (errno == 0 && *end == '\0' && value <= INT_MAX) {
            control.source = SOURCE_FD;
            control.given_fd = (int)value;
            return 0;
        }
    } else if (strncmp(text, "unix:", 5) == 0 && text[5]) {
        control.source = SOURCE_NONE;
        if (strlen(text + 5) >= sizeof control.path) return -ENAMETOOLONG;
        snprintf(control.path, sizeof control.path, "%s", text + 5);
        control.source = SOURCE_UNIX;
        return 0;
    } else if (strcmp(text, "none") == 0) {
        control.source = SOURCE_NONE;
        return 0;
    }
    control.source = SOURCE_NONE;
    return -EINVAL;
}

void control_configure_from_environment(void)
{
    const char *text = getenv("ACTIVITY_CONTROL");
    int configured = configure(text);
    char shown[VISIBLE_SIZE];
    if (configured == -ENAMETOOLONG) {
        complain("libactivity: ACTIVITY_CONTROL=\"%s\": the socket path is %zu bytes; the system allows %zu; "
                 "cancels are not received\n",
                 visible(text, shown, sizeof shown), strlen(text + 5), SOCKET_PATH_MAX);
    } else if (configured != 0) {
        complain("libactivity: ACTIVITY_CONTROL=\"%s\" is not a control channel (expected fd:N, unix:PATH or "
                 "none); cancels are not received\n",
                 visible(text, shown, sizeof shown));
    }
}

static void forget(void)
{
    if (control.fd >= 0 && control.owned) close(control.fd);
    control.fd = -1;
    control.owned = control.is_socket = control.from_sink = false;
    control.used = 0;
    control.skipping = false;
}

/** ACTIVITY_CONTROL=fd:N, read without touching N's flags. */
static void open_given(void)
{
    struct stat st;
    int flags = fcntl(control.given_fd, F_GETFL);
    if (flags < 0 || fstat(control.given_fd, &st) != 0 || (flags & O_ACCMODE) == O_WRONLY) return;
    if (S_ISSOCK(st.st_mode)) {
        control.fd = control.given_fd;
        control.is_socket = true;
    } else if (S_ISFIFO(st.st_mode)) {
        /* A description of our own of the same pipe: non-blocking without changing the caller's. */
        control.fd = open_own_description(control.given_fd, O_NONBLOCK);
        control.owned = control.fd >= 0;
    }
}

static void connect_path(void)
{
    int s = unix_socket();
    if (s < 0) return;
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    memcpy(address.sun_path, control.path, strlen(control.path) + 1);
    int result;
    do {
        result = connect(s, (struct sockaddr *)&address, sizeof address);
    } while (result != 0 && errno == EINTR);
    if (result != 0) {
        close(s);
        return;
    }
    control.fd = s;
    control.owned = control.is_socket = true;
}

/** Chooses the channel for the current sink epoch, once per epoch. */
static void refresh(void)
{
    uint64_t current = sink_epoch();
    if (control.epoch == current) return;
    uint64_t of_copy = 0;
    int copy = sink_control_dup(&of_copy);
    if (copy == -2 && control.fd >= 0 && !control.from_sink) {
        control.epoch = current; /* still not unix: the ACTIVITY_CONTROL channel stays */
        return;
    }
    forget();
    control.finished = false;
    control.epoch = current;
    if (copy >= 0) {
        control.fd = copy;
        control.owned = control.is_socket = control.from_sink = true;
        control.epoch = of_copy;
    } else if (copy == -2) {
        if (control.source == SOURCE_FD) open_given();
        else if (control.source == SOURCE_UNIX) connect_path();
    } else {
        /* A unix: sink not connected yet: try again next time. */
        control.epoch = 0;
    }
}

/** Acts on one complete line; a cancel whose handler must run is added to pending. */
static void take_line(const char *text, size_t length, control_target **pending, size_t *count)
{
    struct json_tokener *tokener = json_tokener_new();
    if (!tokener) return;
    struct json_object *o = json_tokener_parse_ex(tokener, text, (int)length);
    bool whole = o && json_tokener_get_error(tokener) == json_tokener_success &&
                 (size_t)json_tokener_get_parse_end(tokener) == length;
    json_tokener_free(tokener);
    struct json_object *v, *type, *id;
    control_target *t = NULL;
    if (whole && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, "v", &v) &&
        json_object_is_type(v, json_type_int) && json_object_get_int64(v) == 1 &&
        json_object_object_get_ex(o, "type", &type) && json_object_is_type(type, json_type_string) &&
        strcmp(json_object_get_string(type), "cancel") == 0 && json_object_object_get_ex(o, "id", &id) &&
        json_object_is_type(id, json_type_string) && ids_is_valid(json_object_get_string(id))) {
        t = hooks.find(json_object_get_string(id));
    }
    json_object_put(o);
    /* Exactly once: the first cancel of a cancellable open activity wins, every other is ignored. */
    if (!t || !t->cancellable || *count == PENDING || atomic_exchange(&t->requested, true)) {
        atomic_fetch_add(&ignored, 1);
        if (t) hooks.release(t);
        return;
    }
    pending[(*count)++] = t; /* with the reference find took */
}

static void feed(const char *bytes, size_t length, control_target **pending, size_t *count)
{
    for (size_t k = 0; k < length; k++) {
        char c = bytes[k];
        if (c == '\n') {
            if (!control.skipping) take_line(control.line, control.used, pending, count);
            else atomic_fetch_add(&ignored, 1);
            control.used = 0;
            control.skipping = false;
        } else if (control.used < sizeof control.line) {
            control.line[control.used++] = c;
        } else {
            control.skipping = true;
        }
    }
}

/** Reads one chunk of what is there. */
static void read_chunk(control_target **pending, size_t *count)
{
    char chunk[CHUNK];
    ssize_t n;
    do {
        n = control.is_socket ? recv(control.fd, chunk, sizeof chunk, MSG_DONTWAIT)
                              : read(control.fd, chunk, sizeof chunk);
    } while (n < 0 && errno == EINTR);
    if (n > 0) {
        feed(chunk, (size_t)n, pending, count);
        return;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    /* The consumer closed its end, or the descriptor failed: nothing more will come. */
    forget();
    control.finished = true;
}

/** Calls t's handler, unless it has none or is ending, while no other is running. */
static void dispatch(control_target *t)
{
    pthread_mutex_lock(&dispatch_lock);
    activity_cancel_handler handler = t->closed ? NULL : t->handler;
    void *context = t->context;
    if (handler) dispatching = t;
    pthread_mutex_unlock(&dispatch_lock);
    if (!handler) return;
    in_handler = true;
    handler(t->handle, context);
    in_handler = false;
    pthread_mutex_lock(&dispatch_lock);
    dispatching = NULL;
    pthread_cond_broadcast(&dispatch_done);
    pthread_mutex_unlock(&dispatch_lock);
}

void control_set_hooks(const control_hooks *given)
{
    hooks = *given;
}

void control_target_init(control_target *t, activity *handle, bool cancellable)
{
    t->cancellable = cancellable;
    atomic_init(&t->requested, false);
    t->handle = handle;
    t->handler = NULL;
    t->context = NULL;
    t->closed = false;
}

void control_wait(int timeout_ms)
{
    int64_t deadline = monotonic_ms() + timeout_ms;
    hooks.set_busy(true);
    refresh();
    int fd = control.finished ? -1 : control.fd;
    hooks.set_busy(false);
    for (;;) {
        int64_t remaining = deadline - monotonic_ms();
        if (remaining <= 0) return;
        struct pollfd p = {fd, POLLIN, 0};
        int ready = poll(&p, 1, (int)remaining); /* a negative fd only sleeps */
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return;
        control_target *pending[PENDING];
        size_t count = 0;
        hooks.set_busy(true);
        read_chunk(pending, &count);
        fd = control.finished ? -1 : control.fd;
        hooks.set_busy(false);
        for (size_t k = 0; k < count; k++) dispatch(pending[k]);
        if (count > 0) {
            hooks.set_busy(true); /* a release may free: never while fork() is under way */
            for (size_t k = 0; k < count; k++) hooks.release(pending[k]);
            hooks.set_busy(false);
        }
    }
}

void control_close(control_target *t)
{
    if (!t->cancellable) return;
    pthread_mutex_lock(&dispatch_lock);
    t->closed = true;
    t->handler = NULL;
    /* A handler ending its own activity (or another) on this thread must not wait for itself. */
    while (dispatching == t && !in_handler) pthread_cond_wait(&dispatch_done, &dispatch_lock);
    pthread_mutex_unlock(&dispatch_lock);
}

void control_after_fork_in_child(void)
{
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    memcpy(&dispatch_lock, &fresh, sizeof fresh);
    pthread_cond_t fresh_condition = PTHREAD_COND_INITIALIZER;
    memcpy(&dispatch_done, &fresh_condition, sizeof fresh_condition);
    dispatching = NULL;
    /* The parent's channel stays the parent's: its fd:N is never read here, and its connections
       (the sink's or ACTIVITY_CONTROL's) are closed in this process; a unix: sink gets its own. */
    forget();
    control.finished = false;
    control.epoch = 0;
    if (control.source == SOURCE_FD) control.source = SOURCE_NONE;
}

void control_set_handler(control_target *t, activity_cancel_handler handler, void *context)
{
    pthread_mutex_lock(&dispatch_lock);
    if (!t->closed) {
        t->handler = handler;
        t->context = context;
    }
    pthread_mutex_unlock(&dispatch_lock);
}
