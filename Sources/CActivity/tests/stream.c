/* SPDX-License-Identifier: Apache-2.0 */
#include "stream.h"

#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void problem(stream_stats *s, size_t line, const char *format, ...)
{
    if (s->first_problem[0]) return;
    char text[200];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    snprintf(s->first_problem, sizeof s->first_problem, "line %zu: %s", line, text);
}

static const char *string_field(struct json_object *o, const char *key)
{
    struct json_object *value;
    if (!json_object_object_get_ex(o, key, &value) || !json_object_is_type(value, json_type_string)) return NULL;
    return json_object_get_string(value);
}

static bool has(struct json_object *set, const char *key)
{
    return json_object_object_get_ex(set, key, NULL);
}

stream_stats stream_check(const char *text, size_t length)
{
    stream_stats s;
    memset(&s, 0, sizeof s);
    struct json_object *open = json_object_new_object();
    struct json_object *ended = json_object_new_object();
    struct json_object *prefixes = json_object_new_object();
    struct json_tokener *tokener = json_tokener_new();
    size_t offset = 0;
    while (offset < length) {
        const char *start = text + offset;
        const char *newline = memchr(start, '\n', length - offset);
        size_t line_length = newline ? (size_t)(newline - start) + 1 : length - offset;
        offset += line_length;
        s.lines++;
        if (!newline) {
            s.bad_lines++;
            problem(&s, s.lines, "no newline at the end of the stream");
            break;
        }
        if (line_length > 4096) {
            s.bad_lines++;
            problem(&s, s.lines, "%zu bytes long", line_length);
            continue;
        }
        json_tokener_reset(tokener);
        struct json_object *o = json_tokener_parse_ex(tokener, start, (int)line_length - 1);
        if (!o || json_tokener_get_parse_end(tokener) != line_length - 1 || !json_object_is_type(o, json_type_object)) {
            s.bad_lines++;
            problem(&s, s.lines, "not a JSON object: %.80s", start);
            json_object_put(o);
            continue;
        }
        struct json_object *v, *ts;
        const char *type = string_field(o, "type");
        const char *id = string_field(o, "id");
        if (!json_object_object_get_ex(o, "v", &v) || json_object_get_int(v) != 1 || !type ||
            !json_object_object_get_ex(o, "ts", &ts) ||
            !(json_object_is_type(ts, json_type_double) || json_object_is_type(ts, json_type_int))) {
            s.bad_lines++;
            problem(&s, s.lines, "no v, type or ts: %.80s", start);
            json_object_put(o);
            continue;
        }
        if (id) {
            const char *dot = strchr(id, '.');
            char prefix[64];
            snprintf(prefix, sizeof prefix, "%.*s", dot ? (int)(dot - id) : (int)strlen(id), id);
            if (!has(prefixes, prefix)) {
                json_object_object_add(prefixes, prefix, NULL);
                s.prefixes++;
            }
        }
        if (strcmp(type, "begin") == 0) {
            s.begins++;
            if (!id || !string_field(o, "title")) {
                s.bad_lines++;
                problem(&s, s.lines, "begin without id or title");
            } else if (has(open, id) || has(ended, id)) {
                s.unmatched++;
                problem(&s, s.lines, "a second begin of %s", id);
            } else {
                json_object_object_add(open, id, NULL);
            }
        } else if (strcmp(type, "progress") == 0 || strcmp(type, "log") == 0) {
            if (type[0] == 'p') s.progress++;
            else s.logs++;
            if (type[0] == 'l' && !string_field(o, "message")) {
                s.bad_lines++;
                problem(&s, s.lines, "log without message");
            }
            if ((type[0] == 'p' && !id) || (id && !has(open, id))) {
                s.out_of_order++;
                problem(&s, s.lines, "%s for %s, which is not open", type, id ? id : "(no id)");
            }
        } else if (strcmp(type, "end") == 0) {
            s.ends++;
            if (!id || !has(open, id)) {
                s.unmatched++;
                problem(&s, s.lines, "end of %s, which is not open", id ? id : "(no id)");
            } else {
                json_object_object_del(open, id);
                json_object_object_add(ended, id, NULL);
            }
        } else {
            s.bad_lines++;
            problem(&s, s.lines, "unknown type %s", type);
        }
        json_object_put(o);
    }
    size_t still_open = (size_t)json_object_object_length(open);
    if (still_open > 0) {
        s.unmatched += still_open;
        problem(&s, s.lines, "%zu activities never ended", still_open);
    }
    json_tokener_free(tokener);
    json_object_put(open);
    json_object_put(ended);
    json_object_put(prefixes);
    return s;
}

bool stream_ok(const stream_stats *s)
{
    return s->bad_lines == 0 && s->unmatched == 0 && s->out_of_order == 0;
}

void stream_print(const char *label, const stream_stats *s)
{
    fprintf(stderr, "%s: %zu lines: %zu begin, %zu progress, %zu log, %zu end; %zu bad, %zu unmatched, %zu out of order, "
            "%zu processes%s%s\n",
            label, s->lines, s->begins, s->progress, s->logs, s->ends, s->bad_lines, s->unmatched, s->out_of_order,
            s->prefixes, s->first_problem[0] ? "; first problem: " : "", s->first_problem);
}
