// The few libcurl entry points and option numbers this file needs are declared here rather than
// taken from <curl/curl.h>: the build then needs no libcurl headers, and the binary no libcurl
// unless https is used. Option numbers are part of libcurl's stable ABI (curl.h: CURLOPT(...)).
#include "https_post.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void CURL;
struct curl_slist;

enum {
    OPT_WRITEDATA = 10001,
    OPT_URL = 10002,
    OPT_ERRORBUFFER = 10010,
    OPT_WRITEFUNCTION = 20011,
    OPT_POSTFIELDS = 10015,
    OPT_USERAGENT = 10018,
    OPT_HTTPHEADER = 10023,
    OPT_SSLCERT = 10025,
    OPT_POST = 47,
    OPT_CAINFO = 10065,
    OPT_SSLKEY = 10087,
    OPT_NOSIGNAL = 99,
    OPT_POSTFIELDSIZE_LARGE = 30120,
    OPT_TIMEOUT_MS = 155,
    OPT_CONNECTTIMEOUT_MS = 156,
    OPT_PROTOCOLS = 181,      // deprecated in 7.85 for PROTOCOLS_STR, still honoured
    OPT_PROTOCOLS_STR = 10318,
    PROTO_HTTPS = 1 << 1,
    INFO_RESPONSE_CODE = 0x200000 + 2,
    GLOBAL_DEFAULT = 3,
    ERROR_SIZE = 256,
};

static struct {
    int (*global_init)(long);
    CURL *(*easy_init)(void);
    int (*easy_setopt)(CURL *, int, ...);
    int (*easy_perform)(CURL *);
    int (*easy_getinfo)(CURL *, int, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(int);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    int loaded;
    char why[256];
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    // libcurl4 (OpenSSL) first, as Debian's curl uses it; the GnuTLS build has the same ABI.
    static const char *const names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl-nss.so.4"};
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !library; i++)
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(curl.why, sizeof curl.why,
                 "https needs libcurl, which is not installed (libcurl.so.4; on Debian: apt-get install libcurl4)");
        return;
    }
#define SYMBOL(field, name)                                                                                            \
    if (!(*(void **)&curl.field = dlsym(library, name))) {                                                             \
        snprintf(curl.why, sizeof curl.why, "https needs libcurl, but its %s is missing", name);                      \
        return;                                                                                                        \
    }
    SYMBOL(global_init, "curl_global_init")
    SYMBOL(easy_init, "curl_easy_init")
    SYMBOL(easy_setopt, "curl_easy_setopt")
    SYMBOL(easy_perform, "curl_easy_perform")
    SYMBOL(easy_getinfo, "curl_easy_getinfo")
    SYMBOL(easy_cleanup, "curl_easy_cleanup")
    SYMBOL(easy_strerror, "curl_easy_strerror")
    SYMBOL(slist_append, "curl_slist_append")
    SYMBOL(slist_free_all, "curl_slist_free_all")
#undef SYMBOL
    if (curl.global_init(GLOBAL_DEFAULT) != 0) {
        snprintf(curl.why, sizeof curl.why, "https needs libcurl, which failed to initialize");
        return;
    }
    curl.loaded = 1;
}

int https_post_available(char *message, size_t message_size) {
    pthread_once(&load_once, load);
    if (!curl.loaded && message_size > 0) snprintf(message, message_size, "%s", curl.why);
    return curl.loaded;
}

// The answer's body is not needed: only the status is.
static size_t discard(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

https_post_result https_post(
    const char *url, const char *const *headers, size_t header_count, const void *body, size_t length,
    long timeout_ms, const char *ca_file, const char *client_certificate, const char *client_key,
    long *status, char *message, size_t message_size) {
    if (!https_post_available(message, message_size)) return HTTPS_POST_UNAVAILABLE;
    CURL *handle = curl.easy_init();
    if (!handle) {
        snprintf(message, message_size, "libcurl could not make a request");
        return HTTPS_POST_FAILED;
    }
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < header_count; i++) {
        struct curl_slist *longer = curl.slist_append(list, headers[i]);
        if (!longer) {
            /* Never a request without one of its headers (an API key among them). */
            curl.slist_free_all(list);
            curl.easy_cleanup(handle);
            snprintf(message, message_size, "out of memory for the request's headers");
            return HTTPS_POST_FAILED;
        }
        list = longer;
    }
    char error[ERROR_SIZE] = "";
    curl.easy_setopt(handle, OPT_URL, url);
    if (curl.easy_setopt(handle, OPT_PROTOCOLS_STR, "https") != 0)
        curl.easy_setopt(handle, OPT_PROTOCOLS, (long)PROTO_HTTPS);
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L); // no SIGALRM for name lookups: we run on a thread
    curl.easy_setopt(handle, OPT_POST, 1L);
    curl.easy_setopt(handle, OPT_POSTFIELDS, body);
    curl.easy_setopt(handle, OPT_POSTFIELDSIZE_LARGE, (int64_t)length);
    curl.easy_setopt(handle, OPT_HTTPHEADER, list);
    curl.easy_setopt(handle, OPT_TIMEOUT_MS, timeout_ms);
    curl.easy_setopt(handle, OPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, error);
    curl.easy_setopt(handle, OPT_WRITEFUNCTION, discard);
    curl.easy_setopt(handle, OPT_WRITEDATA, NULL);
    if (ca_file) curl.easy_setopt(handle, OPT_CAINFO, ca_file);
    if (client_certificate) curl.easy_setopt(handle, OPT_SSLCERT, client_certificate);
    if (client_key) curl.easy_setopt(handle, OPT_SSLKEY, client_key);
    int code = curl.easy_perform(handle);
    https_post_result result = HTTPS_POST_ANSWERED;
    if (code == 0) {
        long answer = 0;
        curl.easy_getinfo(handle, INFO_RESPONSE_CODE, &answer);
        *status = answer;
    } else {
        snprintf(message, message_size, "%s", error[0] ? error : curl.easy_strerror(code));
        result = HTTPS_POST_FAILED;
    }
    curl.easy_cleanup(handle);
    curl.slist_free_all(list);
    return result;
}
