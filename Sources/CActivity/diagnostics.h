/* SPDX-License-Identifier: Apache-2.0 */
/* diagnostics.c: libactivity's own messages, and the one escaping of what they quote. */
#ifndef ACTIVITY_DIAGNOSTICS_H
#define ACTIVITY_DIAGNOSTICS_H

#include "common.h"

/** Writes a message to stderr with one write(2), without stdio. */
HIDDEN __attribute__((format(printf, 1, 2))) void complain(const char *format, ...);
/**
 * The one escaping function for what libactivity's messages quote from outside (a variable's
 * value, a path): `text` into `out` with controls, bidirectional controls and invisible
 * characters written as visible escapes (`\n`, `\x1b`, `\u{202e}`), as `activity` writes them,
 * so that the person sees what the value is and the terminal obeys none of it. Bytes that are not
 * UTF-8 are written `\xff`. At most 200 bytes of `text` are quoted, then `…`. Returns `out`.
 */
HIDDEN const char *visible(const char *text, char *out, size_t size);
/** Room for visible() of 200 bytes: each byte may take 6, and each 3-byte character 9. */
enum { VISIBLE_SIZE = 1300 };

#endif /* ACTIVITY_DIAGNOSTICS_H */
