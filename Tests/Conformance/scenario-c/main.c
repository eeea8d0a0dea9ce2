/* The conformance scenario, through the C library. Tests/ActivityReportingTests/ConformanceTests.swift
 * runs the same steps through the Swift SDK and compares the two streams. Keep the steps in sync:
 * every change to a count or a total is flushed before the next begin, log or end, so both streams
 * are the same whatever the background flusher's timing. */
#include <activity.h>
#include <stdio.h>

int main(void)
{
    activity *build = activity_begin(NULL, "Build", 3, "targets");
    activity *compile = activity_begin(build, "Compile", 10, NULL);
    activity_advance(compile, 4);
    activity_flush(5000);
    activity_set_message(compile, "compiling main.c");
    activity_flush(5000);
    activity_advance(compile, 6);
    activity_flush(5000);
    activity_log(compile, ACTIVITY_LEVEL_WARNING, "unused variable");
    activity_end(compile, ACTIVITY_STATUS_SUCCESS, NULL);
    activity_advance(build, 1);
    activity_flush(5000);

    activity *link = activity_begin(build, "Link", -1, NULL);
    activity_set_total(link, 5);
    activity_set_completed(link, 2);
    activity_flush(5000);
    activity_end(link, ACTIVITY_STATUS_FAILURE, "undefined symbol: main");

    activity *test = activity_begin(build, "Test", -1, NULL);
    activity_end(test, ACTIVITY_STATUS_CANCELLED, NULL);
    activity *docs = activity_begin(build, "Docs", -1, NULL);
    activity_end(docs, ACTIVITY_STATUS_SKIPPED, "no doc tool");
    activity_log(NULL, ACTIVITY_LEVEL_INFO, "top-level note \xE2\x80\x94 \xE2\x9C\x94 \xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E");
    activity_set_completed(build, 3);
    activity_set_total(build, 4);
    activity_end(build, ACTIVITY_STATUS_SUCCESS, "done");

    activity *upload = activity_begin(NULL, "Upload", 1000000, "bytes");
    activity_advance(upload, 500000);
    activity_flush(5000);
    activity_advance(upload, 500000);
    activity_set_total(upload, -1);
    activity_end(upload, ACTIVITY_STATUS_SUCCESS, NULL);
    return activity_flush(5000) == 0 ? 0 : 1;
}
