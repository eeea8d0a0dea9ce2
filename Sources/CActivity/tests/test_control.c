/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The control direction: cancels read from ACTIVITY_CONTROL and from the unix: sink's connection,
 * every rule for ignoring one, exactly-once handlers, and a cancel racing with the end.
 */
#include <activity.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "harness.h"

/** Waits, at most five seconds, until condition(argument) holds. */
static bool wait_for(bool (*condition)(void *), void *argument)
{
    int64_t deadline = now_ms() + 5000;
    while (!condition(argument)) {
        if (now_ms() > deadline) return false;
        poll(NULL, 0, 2);
    }
    return true;
}

static bool cancel_requested(void *a)
{
    return activity_cancel_requested(a) == 1;
}

static void send_line(int fd, const char *line)
{
    size_t length = strlen(line);
    CHECK(write(fd, line, length) == (ssize_t)length);
}

static void send_cancel(int fd, const char *id)
{
    char line[256];
    snprintf(line, sizeof line, "{\"v\":1,\"type\":\"cancel\",\"id\":\"%s\"}\n", id);
    send_line(fd, line);
}

static _Atomic int handler_calls;

static void count_call(activity *a, void *context)
{
    (void)a;
    CHECK(context == &handler_calls);
    atomic_fetch_add(&handler_calls, 1);
}

/** Sink and control on two pipes: ACTIVITY_CONTROL=fd:N, as a consumer without a socket sets it. */
static int control_pipe(void)
{
    int sink[2], control[2];
    CHECK(pipe(sink) == 0 && pipe(control) == 0);
    fcntl(sink[0], F_SETFL, O_NONBLOCK);
    char value[32];
    snprintf(value, sizeof value, "fd:%d", control[0]);
    setenv("ACTIVITY_CONTROL", value, 1);
    snprintf(value, sizeof value, "fd:%d", sink[1]);
    CHECK_EQ_INT(activity_set_sink(value), 0);
    return control[1];
}

static void ignore_rules(void)
{
    int control = control_pipe();
    activity *plain = activity_begin(NULL, "not cancellable", 1, NULL);
    activity *ended = activity_begin_cancellable(NULL, "already ended", 1, NULL);
    char ended_id[64];
    snprintf(ended_id, sizeof ended_id, "%s", activity_id(ended));
    activity_end(ended, ACTIVITY_STATUS_SUCCESS, NULL);
    activity *target = activity_begin_cancellable(NULL, "target", 1, NULL);
    activity *marker = activity_begin_cancellable(NULL, "marker", 1, NULL);
    CHECK_EQ_INT(activity_set_cancel_handler(plain, count_call, &handler_calls), -EINVAL);
    CHECK_EQ_INT(activity_set_cancel_handler(target, count_call, &handler_calls), 0);

    /* Everything here is ignored; lines are read in order, so once the marker is cancelled, all
       of them have been looked at. */
    send_cancel(control, activity_id(plain));        /* not cancellable */
    send_cancel(control, ended_id);                  /* not open */
    send_cancel(control, "0123456789abcdef.1");      /* not this process's */
    send_line(control, "{\"v\":2,\"type\":\"cancel\",\"id\":\"x\"}\n");
    char line[256];
    snprintf(line, sizeof line, "{\"v\":1,\"type\":\"pause\",\"id\":\"%s\"}\n", activity_id(target));
    send_line(control, line); /* a type this version does not know */
    snprintf(line, sizeof line, "{\"v\":1,\"type\":\"cancel\",\"id\":\"%s\"} trailing\n", activity_id(target));
    send_line(control, line); /* not JSON as a whole */
    send_line(control, "not json\n{\"v\":1,\"type\":\"cancel\"}\n{\"v\":1,\"type\":\"cancel\",\"id\":\"bad id\"}\n");
    send_cancel(control, activity_id(marker));
    CHECK(wait_for(cancel_requested, marker));
    CHECK_EQ_INT(activity_cancel_requested(plain), 0);
    CHECK_EQ_INT(activity_cancel_requested(target), 0);
    CHECK_EQ_INT(atomic_load(&handler_calls), 0);

    /* A cancel split across writes, then the same cancel again: one handler call. */
    snprintf(line, sizeof line, "{\"v\":1,\"type\":\"cancel\",\"id\":\"%s\"}\n", activity_id(target));
    CHECK(write(control, line, 10) == 10);
    poll(NULL, 0, 20);
    send_line(control, line + 10);
    send_line(control, line);
    CHECK(wait_for(cancel_requested, target));
    activity *second_marker = activity_begin_cancellable(NULL, "second marker", 1, NULL);
    send_cancel(control, activity_id(second_marker));
    CHECK(wait_for(cancel_requested, second_marker));
    CHECK_EQ_INT(atomic_load(&handler_calls), 1);

    activity_end(plain, ACTIVITY_STATUS_SUCCESS, NULL);
    activity_end(target, ACTIVITY_STATUS_CANCELLED, NULL);
    activity_end(marker, ACTIVITY_STATUS_CANCELLED, NULL);
    activity_end(second_marker, ACTIVITY_STATUS_CANCELLED, NULL);
    close(control);
}

static _Atomic int ended_by_handler;

static void end_in_handler(activity *a, void *context)
{
    (void)context;
    activity_end(a, ACTIVITY_STATUS_CANCELLED, "stopped");
    atomic_store(&ended_by_handler, 1);
}

static bool handler_ended(void *unused)
{
    (void)unused;
    return atomic_load(&ended_by_handler) == 1;
}

/** The unix: sink's own connection carries the cancel; the handler ends the activity itself. */
static void unix_connection(void)
{
    char *dir = make_temp_dir();
    char path[100], spec[110];
    snprintf(path, sizeof path, "%s/sink", dir);
    snprintf(spec, sizeof spec, "unix:%s", path);
    int listener = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    CHECK(strlen(path) < sizeof address.sun_path);
    memcpy(address.sun_path, path, strlen(path) + 1);
    CHECK(bind(listener, (struct sockaddr *)&address, sizeof address) == 0);
    CHECK(listen(listener, 4) == 0);
    CHECK_EQ_INT(activity_set_sink(spec), 0);

    activity *a = activity_begin_cancellable(NULL, "Uploading", 10, "files");
    CHECK_EQ_INT(activity_set_cancel_handler(a, end_in_handler, NULL), 0);
    int connection = accept(listener, NULL, NULL);
    CHECK(connection >= 0);
    char begin[1024] = {0};
    CHECK(read(connection, begin, sizeof begin - 1) > 0);
    CHECK(strstr(begin, "\"message\"") == NULL && strstr(begin, "\"unit\":\"files\",\"cancellable\":true}") != NULL);
    char id[64];
    const char *start = strstr(begin, "\"id\":\"") + 6;
    snprintf(id, sizeof id, "%.*s", (int)(strchr(start, '"') - start), start);
    send_cancel(connection, id);
    CHECK(wait_for(handler_ended, NULL));
    char rest[1024] = {0};
    struct pollfd p = {connection, POLLIN, 0};
    CHECK(poll(&p, 1, 5000) == 1);
    CHECK(read(connection, rest, sizeof rest - 1) > 0);
    CHECK(strstr(rest, "\"type\":\"end\"") != NULL && strstr(rest, "\"status\":\"cancelled\"") != NULL);
    close(connection);
    close(listener);
    remove_tree(dir);
    free(dir);
}

static void touch(activity *a, void *context)
{
    (void)a;
    (*(int *)context)++;
    atomic_fetch_add(&handler_calls, 1);
}

/** Cancels that cross the activity's end: the handler never runs once activity_end() returned. */
static void cancel_races_end(void)
{
    int control = control_pipe();
    int rounds = harness_quick() ? 20 : 100;
    for (int k = 0; k < rounds; k++) {
        int *context = malloc(sizeof *context);
        *context = 0;
        activity *a = activity_begin_cancellable(NULL, "racing", 1, NULL);
        activity_set_cancel_handler(a, touch, context);
        send_cancel(control, activity_id(a));
        if (k % 3) poll(NULL, 0, k % 7);
        activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
        free(context); /* under ASan a handler running later would be caught here or after */
    }
    CHECK(atomic_load(&handler_calls) <= rounds);
    close(control);
}

/** Without a control channel nothing is read, and everything still works. */
static void no_channel(void)
{
    int sink[2];
    CHECK(pipe(sink) == 0);
    unsetenv("ACTIVITY_CONTROL");
    char value[32];
    snprintf(value, sizeof value, "fd:%d", sink[1]);
    CHECK_EQ_INT(activity_set_sink(value), 0);
    activity *a = activity_begin_cancellable(NULL, "alone", 1, NULL);
    CHECK_EQ_INT(activity_cancel_requested(a), 0);
    CHECK_EQ_INT(activity_set_cancel_handler(a, count_call, &handler_calls), 0);
    CHECK_EQ_INT(activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL), 0);
    CHECK_EQ_INT(activity_cancel_requested(NULL), 0);
    CHECK_EQ_INT(activity_set_cancel_handler(NULL, count_call, NULL), 0);
    CHECK_EQ_INT(activity_set_sink("none"), 0);
    activity *off = activity_begin_cancellable(NULL, "off", 1, NULL);
    CHECK_EQ_INT(activity_set_cancel_handler(off, count_call, NULL), 0);
    CHECK_EQ_INT(activity_cancel_requested(off), 0);
    CHECK_EQ_INT(activity_end(off, ACTIVITY_STATUS_SUCCESS, NULL), 0);
}

int main(int argc, char **argv)
{
    static const scenario scenarios[] = {
        {"ignore_rules", ignore_rules, false},
        {"unix_connection", unix_connection, false},
        {"cancel_races_end", cancel_races_end, false},
        {"no_channel", no_channel, false},
    };
    return harness_main(argc, argv, scenarios, sizeof scenarios / sizeof scenarios[0]);
}
