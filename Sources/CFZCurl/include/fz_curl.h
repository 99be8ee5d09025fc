// fz_curl.h: forcezoom's HTTP requests through libcurl, opened on first use (fz_curl_loader.c).
// One call, fz_http_perform, makes one request on a reused handle with every option set in C
// (curl_easy_setopt is variadic) and gives back the status, the last response's headers and
// the body bytes asked for. Nothing here longjmps; a failure is a CURLcode and curl's words.
#ifndef FZ_CURL_H
#define FZ_CURL_H

#include <stddef.h>
#include <stdint.h>

/* Whether libcurl.so.4 opens and has every function used: 1, or 0 with dlerror's words. */
int fz_curl_available(char *why, size_t size);
/* The soname of library `slot` (0: libcurl.so.4), or NULL past the last. */
const char *fz_curl_soname(int slot);

/* A connection cache: one easy handle, reused by every request of one source (keep-alive). */
void *fz_curl_handle_new(void);
void fz_curl_handle_free(void *handle);

typedef struct fz_http_request {
    const char *method;        /* "GET", "HEAD", "PUT", ... */
    const char *url;           /* sent as given (CURLOPT_PATH_AS_IS) */
    const char *const *headers; /* "Name: value" lines, NULL-terminated, or NULL */
    const uint8_t *upload;     /* request body in memory, or NULL */
    size_t upload_length;
    /* A request body read from a file instead (a multipart part is never copied into memory):
       `upload_length` bytes of descriptor `upload_fd` from `upload_offset` (pread), when >= 0. */
    int upload_fd;
    int64_t upload_offset;
    int has_upload;            /* a body is sent (of upload_length bytes, maybe 0) */
    int keep_content_type;     /* 0: no Content-Type is added (a signed request lists its own) */
    const char *ca_file;       /* a private CA bundle, or NULL for the system's */
    long connect_timeout_ms;
    long low_speed_seconds;    /* abort when below 1 KiB/s for this long */
    long total_timeout_ms;     /* 0: none */
    long max_redirects;
    /* The body: `skip` bytes are dropped first (a server that sent 200 to a range request
       sends the object from byte 0), then up to `capacity` bytes land in `body`; past that the
       transfer is stopped (`stopped` = 1), which is not an error. */
    uint8_t *body;
    size_t capacity;
    int64_t skip;
    /* Whether the skip applies only to a 200 answer (a 206 starts at the range's first byte). */
    int skip_only_on_200;
} fz_http_request;

typedef struct fz_http_response {
    long status;
    int curl_code;        /* CURLE_OK or the failure */
    int timed_out;        /* CURLE_OPERATION_TIMEDOUT */
    int stopped;          /* the body reached `capacity` and the transfer was stopped */
    long redirects;
    size_t received;      /* bytes written into `body` */
    int64_t body_seen;    /* body bytes the server sent before the stop (skipped ones too) */
    size_t header_length;
    char headers[16384];  /* the final response's header lines, NUL-terminated */
    char error[256];      /* curl's words when curl_code != 0 */
} fz_http_response;

/* The header text of `response` (Swift does not import a 16 KiB array). */
static inline const char *fz_http_response_headers(const fz_http_response *response) { return response->headers; }

/* Makes `request` on `handle`; fills `response`. Returns 0, or the CURLcode of a failure. */
int fz_http_perform(void *handle, const fz_http_request *request, fz_http_response *response);

#endif
