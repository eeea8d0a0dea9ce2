/* SPDX-License-Identifier: Apache-2.0 */
/* ids.c: activity ids, fresh in every process. */
#ifndef ACTIVITY_IDS_H
#define ACTIVITY_IDS_H

#include "common.h"

/** Room for an id: 16 hex digits, a dot, 20 decimal digits and a NUL. */
#define ID_CAPACITY 40

/** Writes a fresh id into buffer (ID_CAPACITY bytes). */
HIDDEN void ids_next(char buffer[ID_CAPACITY]);
HIDDEN void ids_after_fork_in_child(void);
/** Whether s is a valid protocol id: 1 to 128 bytes of [A-Za-z0-9._:@/+-]. */
HIDDEN bool ids_is_valid(const char *s);

#endif /* ACTIVITY_IDS_H */
