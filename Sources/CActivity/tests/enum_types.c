/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Compile-time checks of the status and level enums (tests/enum_types.sh compiles this with each
 * case defined): a level where a status belongs, or the other way round, is diagnosed; the names
 * of version 0.1 still compile, with a deprecation warning.
 */
#include <activity.h>
#include <stddef.h>

int main(void)
{
    activity *a = activity_begin(NULL, "enums", -1, NULL);
#if defined(CASE_LEVEL_AS_STATUS)
    /* The old trap: ACTIVITY_ERROR and ACTIVITY_SKIPPED were both 3, so this reported "skipped". */
    return activity_end(a, ACTIVITY_LEVEL_ERROR, "disk full"); /* diagnosed: CASE_LEVEL_AS_STATUS */
#elif defined(CASE_STATUS_AS_LEVEL)
    activity_log(a, ACTIVITY_STATUS_FAILURE, "disk full"); /* diagnosed: CASE_STATUS_AS_LEVEL */
    return activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
#elif defined(CASE_OLD_NAMES)
    activity_log(a, ACTIVITY_WARNING, "old names");
    return activity_end(a, ACTIVITY_SUCCESS, NULL);
#else
    activity_log(a, ACTIVITY_LEVEL_WARNING, "new names");
    return activity_end(a, ACTIVITY_STATUS_SUCCESS, NULL);
#endif
}
