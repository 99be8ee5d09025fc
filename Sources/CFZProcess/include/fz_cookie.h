// fz_cookie.h: a read-only stdio stream over callbacks (glibc's fopencookie), so the C
// libraries that read a FILE* (libjpeg, libpng, libtiff, giflib) read a byte source that is
// not a file (ByteSource.swift) without it being downloaded first.
#ifndef FZ_COOKIE_H
#define FZ_COOKIE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Reads up to `size` bytes at `offset` into `buffer`: the count (0 at the end), or -1 on failure. */
typedef long (*fz_cookie_read_fn)(void *context, int64_t offset, char *buffer, size_t size);
/* The source's size in bytes. */
typedef int64_t (*fz_cookie_size_fn)(void *context);
/* Called once when the stream closes. */
typedef void (*fz_cookie_close_fn)(void *context);

/* A "rb" stream reading through the callbacks; NULL when it cannot be made. */
FILE *fz_cookie_open(void *context, fz_cookie_read_fn read, fz_cookie_size_fn size, fz_cookie_close_fn close);

#endif
