#ifndef HTTPS_POST_H
#define HTTPS_POST_H

#include <stddef.h>

/// What https_post did.
typedef enum {
    /// The server answered; `*status` holds the HTTP status.
    HTTPS_POST_ANSWERED = 0,
    /// No answer (name, connection, TLS, timeout); `message` says why.
    HTTPS_POST_FAILED = 1,
    /// libcurl could not be loaded; `message` says what was tried.
    HTTPS_POST_UNAVAILABLE = 2,
} https_post_result;

/// Whether libcurl can be loaded; when not, writes why into `message`.
int https_post_available(char *message, size_t message_size);

/// One POST over https through libcurl, which is loaded on first use (dlopen), so that programs
/// that never post over https neither link it nor pay for loading it. The server's certificate
/// is verified against the system's trust store, or `ca_file` when it is not NULL; a client
/// certificate and key are sent when given. Only https is allowed, redirects are not followed,
/// and `timeout_ms` bounds the whole request, connecting included. Safe to call from any thread.
https_post_result https_post(
    const char *url, const char *const *headers, size_t header_count, const void *body, size_t length,
    long timeout_ms, const char *ca_file, const char *client_certificate, const char *client_key,
    long *status, char *message, size_t message_size);

#endif
