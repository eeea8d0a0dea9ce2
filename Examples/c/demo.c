/* A build that reports its progress through libactivity.
 *
 *   cc demo.c $(pkg-config --cflags --libs activity) -o demo
 *   ACTIVITY_SINK=stderr ./demo
 *   ./demo | activity render          (with ACTIVITY_SINK=stdout)
 */
#include <activity.h>
#include <stdio.h>

static void compile(activity *build, const char *file)
{
    char title[256];
    snprintf(title, sizeof title, "Compiling %s", file);
    activity *step = activity_begin(build, title, -1, NULL);
    /* ... the real work ... */
    activity_end(step, ACTIVITY_STATUS_SUCCESS, NULL);
    activity_advance(build, 1);
}

int main(void)
{
    const char *files[] = {"main.c", "parser.c", "lexer.c", "codegen.c"};
    const int count = (int)(sizeof files / sizeof files[0]);

    activity *build = activity_begin(NULL, "Building demo", count, "files");
    for (int k = 0; k < count; k++) compile(build, files[k]);

    activity *download = activity_begin(build, "Downloading assets.tar", 1 << 20, "bytes");
    for (int chunk = 0; chunk < 256; chunk++) activity_advance(download, 4096); /* the hot path */
    activity_end(download, ACTIVITY_STATUS_SUCCESS, NULL);

    activity_log(build, ACTIVITY_LEVEL_WARNING, "lexer.c: unused variable 'x'");
    activity *tests = activity_begin(build, "Testing", 3, NULL);
    activity_set_completed(tests, 2);
    activity_end(tests, ACTIVITY_STATUS_FAILURE, "1 of 3 tests failed");

    /* A child process would nest under the build with ACTIVITY_PARENT=<this id>. */
    printf("build id: %s\n", activity_id(build) ? activity_id(build) : "");
    activity_end(build, ACTIVITY_STATUS_SUCCESS, "built with 1 warning");
    return 0;
}
