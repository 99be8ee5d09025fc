// libcurl, opened on first use (fz_loader.h says why: linking it would load libcurl, OpenSSL,
// nghttp2, libssh2 and the rest at every run, URL or not). forcezoom asks libcurl.so.4 (Debian's
// libcurl4, the OpenSSL build that libcurl4-openssl-dev's headers describe) for the functions
// below; without it only URL inputs fail (fz_curl_available is asked first, HTTPClient.swift).
//
// fz_http_perform sets every option of one request in C: curl_easy_setopt is variadic, which
// Swift cannot call, and the write and header callbacks are C as well. The handle is kept
// between requests of one input, so its connection (and TLS session) is reused.
#include "fz_curl.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "fz_loader.h"
#define CURL_DISABLE_TYPECHECK 1  // the forwarder casts curl_easy_setopt, a macro otherwise
#include <curl/curl.h>

static const fz_loader_entry fz_curl_symbols[] = {
    {0, "curl_easy_cleanup"},
    {0, "curl_easy_getinfo"},
    {0, "curl_easy_init"},
    {0, "curl_easy_perform"},
    {0, "curl_easy_reset"},
    {0, "curl_easy_setopt"},
    {0, "curl_easy_strerror"},
    {0, "curl_global_init"},
    {0, "curl_slist_append"},
    {0, "curl_slist_free_all"},
};

static fz_loader fz_curl_loader = {
    .format = "http(s) input",
    .count = 1,
    .names = {"libcurl.so.4"},
    .symbols = fz_curl_symbols,
    .symbol_count = sizeof fz_curl_symbols / sizeof fz_curl_symbols[0],
};

int fz_curl_available(char *why, size_t size) { return fz_loader_available(&fz_curl_loader, why, size); }
const char *fz_curl_soname(int slot) { return fz_loader_soname(&fz_curl_loader, slot); }

#define FZ_SYMBOL(slot, name) FZ_LOADER_SYMBOL(&fz_curl_loader, slot, name)

static pthread_once_t fz_curl_once = PTHREAD_ONCE_INIT;
static void fz_curl_global(void) { FZ_SYMBOL(0, curl_global_init)(CURL_GLOBAL_DEFAULT); }

void *fz_curl_handle_new(void) {
    pthread_once(&fz_curl_once, fz_curl_global);
    return FZ_SYMBOL(0, curl_easy_init)();
}

void fz_curl_handle_free(void *handle) {
    if (handle) FZ_SYMBOL(0, curl_easy_cleanup)(handle);
}

// What the callbacks of one transfer share.
typedef struct fz_transfer {
    CURL *curl;
    const fz_http_request *request;
    fz_http_response *response;
    int decided;      // the status has been read: whether the skip applies is known
    int64_t to_skip;  // body bytes still to drop
    const uint8_t *upload_next;
    size_t upload_left;
    int64_t upload_at;  // the file offset of the next body byte (upload_fd >= 0)
} fz_transfer;

static size_t fz_curl_header(char *data, size_t size, size_t count, void *user) {
    fz_transfer *t = user;
    size_t n = size * count;
    fz_http_response *r = t->response;
    // A redirect's or a 100 Continue's headers come first: each status line starts afresh,
    // so `headers` holds the final response's.
    if (n >= 5 && strncmp(data, "HTTP/", 5) == 0) r->header_length = 0;
    size_t room = sizeof r->headers - 1 - r->header_length;
    size_t kept = n < room ? n : room;
    memcpy(r->headers + r->header_length, data, kept);
    r->header_length += kept;
    r->headers[r->header_length] = 0;
    return n;
}

static size_t fz_curl_write(char *data, size_t size, size_t count, void *user) {
    fz_transfer *t = user;
    size_t n = size * count;
    fz_http_response *r = t->response;
    if (!t->decided) {
        t->decided = 1;
        long status = 0;
        FZ_SYMBOL(0, curl_easy_getinfo)(t->curl, CURLINFO_RESPONSE_CODE, &status);
        t->to_skip = (!t->request->skip_only_on_200 || status == 200) ? t->request->skip : 0;
    }
    r->body_seen += (int64_t)n;
    size_t offset = 0;
    if (t->to_skip > 0) {
        size_t dropped = (int64_t)n < t->to_skip ? n : (size_t)t->to_skip;
        t->to_skip -= (int64_t)dropped;
        offset = dropped;
    }
    size_t room = t->request->capacity - r->received;
    size_t take = n - offset < room ? n - offset : room;
    if (take > 0) memcpy(t->request->body + r->received, data + offset, take);
    r->received += take;
    if (offset + take < n) {
        r->stopped = 1;
        return 0;  // enough: CURLE_WRITE_ERROR, which fz_http_perform reports as a stop
    }
    return n;
}

static size_t fz_curl_read(char *buffer, size_t size, size_t count, void *user) {
    fz_transfer *t = user;
    size_t n = size * count < t->upload_left ? size * count : t->upload_left;
    if (n == 0) return 0;
    if (t->request->upload_fd >= 0) {
        ssize_t got = pread(t->request->upload_fd, buffer, n, (off_t)t->upload_at);
        if (got <= 0) return CURL_READFUNC_ABORT;  // the file shrank or failed: no short body sent
        t->upload_at += got;
        t->upload_left -= (size_t)got;
        return (size_t)got;
    }
    memcpy(buffer, t->upload_next, n);
    t->upload_next += n;
    t->upload_left -= n;
    return n;
}

// curl_easy_setopt, looked up once (a function, not the macro, so the table test sees it).
typedef CURLcode (*fz_setopt_function)(CURL *, CURLoption, ...);
static fz_setopt_function fz_setopt(void) { return FZ_SYMBOL(0, curl_easy_setopt); }
#define FZ_SET(option, value) fz_setopt()(curl, option, value)

// The options of one request (the handle was reset: nothing of the last request stays but
// its connection).
static struct curl_slist *fz_curl_options(CURL *curl, const fz_http_request *q, fz_transfer *t) {
    FZ_SET(CURLOPT_URL, q->url);
    FZ_SET(CURLOPT_PATH_AS_IS, 1L);
    FZ_SET(CURLOPT_PROTOCOLS_STR, "http,https");
    FZ_SET(CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    FZ_SET(CURLOPT_FOLLOWLOCATION, q->max_redirects > 0 ? 1L : 0L);
    FZ_SET(CURLOPT_MAXREDIRS, q->max_redirects);
    FZ_SET(CURLOPT_NOSIGNAL, 1L);
    FZ_SET(CURLOPT_SSL_VERIFYPEER, 1L);
    FZ_SET(CURLOPT_SSL_VERIFYHOST, 2L);
    if (q->ca_file) FZ_SET(CURLOPT_CAINFO, q->ca_file);
    FZ_SET(CURLOPT_CONNECTTIMEOUT_MS, q->connect_timeout_ms);
    FZ_SET(CURLOPT_LOW_SPEED_LIMIT, 1024L);  // bytes per second
    FZ_SET(CURLOPT_LOW_SPEED_TIME, q->low_speed_seconds);
    if (q->total_timeout_ms > 0) FZ_SET(CURLOPT_TIMEOUT_MS, q->total_timeout_ms);
    FZ_SET(CURLOPT_USERAGENT, "forcezoom");
    FZ_SET(CURLOPT_ACCEPT_ENCODING, NULL);  // bytes as stored: a range of gzip is no range
    FZ_SET(CURLOPT_HEADERFUNCTION, fz_curl_header);
    FZ_SET(CURLOPT_HEADERDATA, t);
    FZ_SET(CURLOPT_WRITEFUNCTION, fz_curl_write);
    FZ_SET(CURLOPT_WRITEDATA, t);
    FZ_SET(CURLOPT_ERRORBUFFER, t->response->error);
    if (strcmp(q->method, "HEAD") == 0) {
        FZ_SET(CURLOPT_NOBODY, 1L);
    } else if (strcmp(q->method, "PUT") == 0) {
        FZ_SET(CURLOPT_UPLOAD, 1L);
        FZ_SET(CURLOPT_READFUNCTION, fz_curl_read);
        FZ_SET(CURLOPT_READDATA, t);
        FZ_SET(CURLOPT_INFILESIZE_LARGE, (curl_off_t)q->upload_length);
    } else if (strcmp(q->method, "GET") != 0) {
        FZ_SET(CURLOPT_CUSTOMREQUEST, q->method);
        if (q->has_upload) {
            // Through the read callback (a file's bytes, or memory), Content-Length set.
            FZ_SET(CURLOPT_POST, 1L);
            FZ_SET(CURLOPT_READFUNCTION, fz_curl_read);
            FZ_SET(CURLOPT_READDATA, t);
            FZ_SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)q->upload_length);
        }
    }
    struct curl_slist *list = NULL;
    for (const char *const *h = q->headers; h && *h; h++) list = FZ_SYMBOL(0, curl_slist_append)(list, *h);
    // No "Expect: 100-continue" pause before a body.
    if (q->has_upload) list = FZ_SYMBOL(0, curl_slist_append)(list, "Expect:");
    // A POST's default form type is not among a signature's headers: none unless asked.
    if (q->has_upload && !q->keep_content_type) list = FZ_SYMBOL(0, curl_slist_append)(list, "Content-Type:");
    if (list) FZ_SET(CURLOPT_HTTPHEADER, list);
    return list;
}

int fz_http_perform(void *handle, const fz_http_request *q, fz_http_response *r) {
    CURL *curl = handle;
    memset(r, 0, sizeof *r);
    FZ_SYMBOL(0, curl_easy_reset)(curl);
    fz_transfer t = {.curl = curl, .request = q, .response = r, .upload_next = q->upload,
                     .upload_left = q->has_upload ? q->upload_length : 0, .upload_at = q->upload_offset};
    struct curl_slist *list = fz_curl_options(curl, q, &t);
    CURLcode code = FZ_SYMBOL(0, curl_easy_perform)(curl);
    if (list) FZ_SYMBOL(0, curl_slist_free_all)(list);
    FZ_SYMBOL(0, curl_easy_getinfo)(curl, CURLINFO_RESPONSE_CODE, &r->status);
    FZ_SYMBOL(0, curl_easy_getinfo)(curl, CURLINFO_REDIRECT_COUNT, &r->redirects);
    if (code == CURLE_WRITE_ERROR && r->stopped) code = CURLE_OK;
    r->curl_code = (int)code;
    r->timed_out = code == CURLE_OPERATION_TIMEDOUT;
    if (code != CURLE_OK && r->error[0] == 0) {
        snprintf(r->error, sizeof r->error, "%s", FZ_SYMBOL(0, curl_easy_strerror)(code));
    }
    return (int)code;
}
