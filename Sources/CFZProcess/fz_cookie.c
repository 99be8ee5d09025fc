// fz_cookie.h: a read-only stdio stream over a byte source's callbacks.
#define _GNU_SOURCE  // fopencookie
#include "fz_cookie.h"

#include <errno.h>
#include <stdlib.h>

typedef struct fz_cookie {
    void *context;
    fz_cookie_read_fn read;
    fz_cookie_size_fn size;
    fz_cookie_close_fn close;
    int64_t position;
} fz_cookie;

static ssize_t fz_cookie_read(void *c, char *buffer, size_t size) {
    fz_cookie *k = c;
    long n = k->read(k->context, k->position, buffer, size);
    if (n < 0) {
        errno = EIO;
        return -1;
    }
    k->position += n;
    return n;
}

static int fz_cookie_seek(void *c, off64_t *offset, int whence) {
    fz_cookie *k = c;
    int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? k->position : k->size(k->context);
    int64_t target = base + *offset;
    if (target < 0) {
        errno = EINVAL;
        return -1;
    }
    k->position = target;
    *offset = target;
    return 0;
}

static int fz_cookie_close(void *c) {
    fz_cookie *k = c;
    if (k->close) k->close(k->context);
    free(k);
    return 0;
}

FILE *fz_cookie_open(void *context, fz_cookie_read_fn read, fz_cookie_size_fn size, fz_cookie_close_fn close) {
    fz_cookie *k = calloc(1, sizeof *k);
    if (k == NULL) return NULL;
    *k = (fz_cookie){.context = context, .read = read, .size = size, .close = close};
    cookie_io_functions_t io = {.read = fz_cookie_read, .write = NULL, .seek = fz_cookie_seek, .close = fz_cookie_close};
    FILE *f = fopencookie(k, "rb", io);
    if (f == NULL) {
        free(k);
        return NULL;
    }
    // 16 KiB reads: the libraries' small reads are served from stdio's buffer, and each fill
    // asks the source once (which serves it from its block cache).
    setvbuf(f, NULL, _IOFBF, 1 << 14);
    return f;
}
