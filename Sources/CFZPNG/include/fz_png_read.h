// fz_png_read.h: forcezoom's own PNG reader (fz_png_read.c, fz_png_unfilter.c): chunks and
// CRCs parsed here, IDAT inflated by ISA-L's streaming inflate, rows unfiltered with SSE2.
// It keeps the contract of fz_png.h's libpng reader (same header struct, same transforms,
// same verdicts), which stays callable so tests can compare the two pixel for pixel.
// libpng remains forcezoom's PNG writer (fz_png.c).
#ifndef FZ_PNG_READ_H
#define FZ_PNG_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fz_png.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fz_pngr fz_pngr;

/// As fz_png_open: signature and chunks up to the first IDAT's header. No longjmp here.
int fz_pngr_open(FILE *file, size_t chunk_malloc_max, fz_pngr **out);
/// As fz_png_start: allocates two stored rows and the inflate state; fills `channels`.
int fz_pngr_start(fz_pngr *reader);
/// As fz_png_start_keep16.
int fz_pngr_start_keep16(fz_pngr *reader);
const fz_png_header *fz_pngr_header_of(const fz_pngr *reader);
const char *fz_pngr_message(const fz_pngr *reader);
fz_png_failure fz_pngr_failure_of(const fz_pngr *reader);
int fz_pngr_warning_count(const fz_pngr *reader);
/// As fz_png_read_rows (non-interlaced); reads to IEND after the last row.
int fz_pngr_read_rows(fz_pngr *reader, uint8_t *rows, uint32_t count, size_t stride, uint32_t *done);
/// As fz_png_read_interlaced: all Adam7 passes into `pixels`, then to IEND.
int fz_pngr_read_interlaced(fz_pngr *reader, uint8_t *pixels, size_t stride);
/// Allows fz_pngr_read_rows to inflate on a thread of its own while the caller's thread
/// unfilters (`threads` >= 2, a non-interlaced image of at least `minimum_bytes` stored
/// bytes, set before the first row). The rows, messages and verdicts are the same.
void fz_pngr_set_threads(fz_pngr *reader, int threads, size_t minimum_bytes);
void fz_pngr_free(fz_pngr *reader);

/// Undoes one row's PNG filter (`filter` 0-4) in place: `row` and `prev` hold `length`
/// bytes (`prev` all zero for the first row), `bpp` bytes a pixel (1-8). Returns FZ_ERROR
/// for an unknown filter. The fast version (SSE2 where the CPU has it).
int fz_png_unfilter(uint8_t *row, const uint8_t *prev, size_t length, int bpp, int filter);
/// The same, a byte at a time as the PNG specification writes it: the tests' reference.
int fz_png_unfilter_reference(uint8_t *row, const uint8_t *prev, size_t length, int bpp, int filter);

#ifdef __cplusplus
}
#endif
#endif
