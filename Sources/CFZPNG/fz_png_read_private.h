// The PNG reader's state and the parts its inflating thread (fz_png_pipe.c) shares with
// fz_png_read.c. Not part of the contract (fz_png_read.h): Swift never sees it.
#ifndef FZ_PNG_READ_PRIVATE_H
#define FZ_PNG_READ_PRIVATE_H

#include <isa-l/igzip_lib.h>

#include "fz_png_read.h"

typedef struct fz_pngr_pipe fz_pngr_pipe;

// What the inflating thread met (fz_pngr_fail/fz_pngr_warn write here on that thread): it
// reaches the reader when the rows before it have been delivered, as the serial reader
// would have met it.
typedef struct fz_pngr_status {
    fz_png_failure failure;
    char message[FZ_MESSAGE_MAX];
    int warnings;
    char warning[FZ_MESSAGE_MAX];  // the first one's text
} fz_pngr_status;

// Set on the inflating thread only.
extern _Thread_local fz_pngr_status *fz_pngr_diverted;

struct fz_pngr {
    FILE *file;
    size_t chunk_max;
    fz_png_header header;
    int warnings;
    fz_png_failure failure;
    char message[FZ_MESSAGE_MAX];
    // Chunks
    uint32_t chunk_type, chunk_left, crc;  // the current chunk (IDAT while inflating)
    uint32_t adler;  // of the inflated bytes so far
    int seen_plte, stream_ended, zlib_header, extra_held, bad_after, cached;
    uint8_t palette[256 * 3];
    int num_palette;
    uint8_t trns_alpha[256];
    int num_trns;
    uint16_t trns[3];
    int cs_flags, gamma_fixed, bad_index;
    int32_t chrm_fixed[8];
    uint8_t *exif, *icc, *xmp;
    // Decoding
    struct inflate_state *inflate;
    uint8_t *in;
    uint8_t *cur, *prev, *line;  // stored rows (filter byte + bytes), one expanded row
    size_t stored_bytes;         // bytes of a stored full-width row, without the filter byte
    int bpp, keep16, started, rows_done, at_end;
    uint32_t rows_read;
    // Inflating on a thread of its own (fz_png_pipe.c): allowed threads, the least stored
    // bytes worth it, and the running pipe.
    int pipe_threads;
    size_t pipe_minimum;
    fz_pngr_pipe *pipe;
};

void fz_pngr_fail(fz_pngr *r, fz_png_failure kind, const char *text);
void fz_pngr_warn(fz_pngr *r, const char *text);
// Inflates exactly n bytes into out (`finishing`: see fz_png_read.c).
int fz_pngr_inflate(fz_pngr *r, uint8_t *out, size_t n, int finishing, int *extra);
// The end of the zlib stream and of the last IDAT, after the last row's bytes.
int fz_pngr_finish_idat(fz_pngr *r);
// Every chunk after the image data, to IEND.
int fz_pngr_end(fz_pngr *r);
// A stored row (no filter byte) to forcezoom's layout.
void fz_pngr_expand(fz_pngr *r, const uint8_t *src, uint32_t width, uint8_t *dst);

// The pipe (fz_png_pipe.c): whether one was started for this reader's rows (threads
// allowed, enough bytes, nothing read yet, not interlaced).
int fz_pngr_pipe_begin(fz_pngr *r);
// fz_pngr_read_rows through the pipe.
int fz_pngr_pipe_rows(fz_pngr *r, uint8_t *rows, uint32_t count, size_t stride, uint32_t *done);
// Stops and joins the inflating thread, frees the pipe (none: nothing).
void fz_pngr_pipe_end(fz_pngr *r);

#endif
