/* Work the person watching may cancel: Esc in `activity run --mode overlay -- ./cancel`.
 *
 *   cc cancel.c $(pkg-config --cflags --libs activity) -o cancel
 *   activity run --mode overlay -- ./cancel
 *
 * The loop checks activity_cancel_requested() (one atomic load); the handler, called on the
 * library's thread, wakes the loop at once instead of at its next step. Without a renderer that can
 * cancel, the work runs to its end.
 */
#include <activity.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int wake[2] = {-1, -1};

/* On the library's thread: quick, never blocking. */
static void on_cancel(activity *a, void *context)
{
    (void)a;
    (void)context;
    char byte = 1;
    ssize_t ignored = write(wake[1], &byte, 1);
    (void)ignored;
}

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 3000; /* 30 s of 10 ms steps */
    if (pipe(wake) != 0) return 1;
    activity *work = activity_begin_cancellable(NULL, "Waiting for Cancel", steps, "steps");
    activity_set_cancel_handler(work, on_cancel, NULL);
    for (int step = 0; step < steps && !activity_cancel_requested(work); step++) {
        struct pollfd p = {wake[0], POLLIN, 0};
        poll(&p, 1, 10); /* the real work would go here */
        activity_advance(work, 1);
    }
    int cancelled = activity_cancel_requested(work);
    activity_end(work, cancelled ? ACTIVITY_STATUS_CANCELLED : ACTIVITY_STATUS_SUCCESS, NULL);
    printf("%s\n", cancelled ? "stopped: cancelled" : "finished");
    return 0;
}
