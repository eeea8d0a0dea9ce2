/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libactivity's own messages: written to stderr in one write(2), never through stdio (the
 * caller's buffers stay the caller's), and whatever they quote from outside made visible.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "diagnostics.h"

void complain(const char *format, ...)
{
    char text[2048];
    va_list arguments;
    va_start(arguments, format);
    int length = vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    if (length <= 0) return;
    if ((size_t)length >= sizeof text) {
        length = sizeof text - 1;
        text[length - 1] = '\n';
    }
    ssize_t ignored = write(STDERR_FILENO, text, (size_t)length);
    (void)ignored;
}

/** Whether a code point would act on the terminal or hide text instead of showing: the controls,
    bidirectional controls and invisible characters the Swift side's TerminalSanitizer escapes. */
static bool is_hidden(uint32_t c)
{
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0xAD || c == 0x061C || c == 0x115F || c == 0x1160 ||
           c == 0x180E || (c >= 0x200B && c <= 0x200F) || (c >= 0x2028 && c <= 0x202E) ||
           (c >= 0x2060 && c <= 0x206F) || c == 0x3164 || c == 0xFEFF || c == 0xFFA0 || (c >= 0xFFF9 && c <= 0xFFFB) ||
           (c >= 0x1BCA0 && c <= 0x1BCA3) || (c >= 0x1D173 && c <= 0x1D17A) || (c >= 0xE0000 && c <= 0xE007F);
}

const char *visible(const char *text, char *out, size_t size)
{
    size_t n = 0;
    const unsigned char *p = (const unsigned char *)(text ? text : "");
    const unsigned char *start = p;
    while (*p && n + 16 < size) {
        if (p - start >= 200) {
            n += (size_t)snprintf(out + n, size - n, "…");
            break;
        }
        uint32_t c = *p;
        int length = 1;
        if (c >= 0x80) {
            int extra = c >= 0xF0 && c <= 0xF4 ? 3 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xC2 && c < 0xE0 ? 1 : -1;
            bool valid = extra > 0;
            uint32_t value = extra == 3 ? c & 0x07 : extra == 2 ? c & 0x0F : c & 0x1F;
            for (int i = 1; valid && i <= extra; i++) {
                if ((p[i] & 0xC0) != 0x80) valid = false;
                else value = value << 6 | (p[i] & 0x3F);
            }
            if (valid && ((extra == 2 && (value < 0x800 || (value >= 0xD800 && value <= 0xDFFF))) ||
                          (extra == 3 && (value < 0x10000 || value > 0x10FFFF))))
                valid = false;
            if (!valid) {
                n += (size_t)snprintf(out + n, size - n, "\\x%02x", (unsigned)c);
                p++;
                continue;
            }
            c = value;
            length = extra + 1;
        }
        if (!is_hidden(c)) {
            memcpy(out + n, p, (size_t)length);
            n += (size_t)length;
        } else if (c == '\n') {
            n += (size_t)snprintf(out + n, size - n, "\\n");
        } else if (c == '\r') {
            n += (size_t)snprintf(out + n, size - n, "\\r");
        } else if (c == '\t') {
            n += (size_t)snprintf(out + n, size - n, "\\t");
        } else if (c < 0x100) {
            n += (size_t)snprintf(out + n, size - n, "\\x%02x", (unsigned)c);
        } else {
            n += (size_t)snprintf(out + n, size - n, "\\u{%x}", (unsigned)c);
        }
        p += length;
    }
    out[n < size ? n : size - 1] = '\0';
    return out;
}
