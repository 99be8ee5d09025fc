#ifndef FZ_DE265_H
#define FZ_DE265_H

#include <stddef.h>
#include <stdint.h>

/* One HEVC tile of an HEIF grid decoded by libde265 and converted to 8-bit RGB exactly as
   libheif 1.15 converts it (fz_de265.c says how). Every outcome other than FZ_DE265_OK
   means "not decoded here": the caller decodes the tile through libheif instead, which
   gives today's pixels or today's error. */

enum {
    FZ_DE265_OK = 0,
    /* Something this path does not check or convert (hvcC it does not read, NAL length
       size other than 4, bit depth, chroma, matrix 12/13, a picture of another size). */
    FZ_DE265_UNSUPPORTED = 1,
    /* libde265 gave no picture (corrupt or truncated data), or memory ran out. */
    FZ_DE265_FAILED = 2,
};

/* The colour the conversion uses: the grid's colr nclx when it has one (has_nclx = 1),
   else the picture's VUI (what libheif falls back to). */
typedef struct fz_de265_colour {
    int has_nclx;
    int matrix;
    int primaries;
    int full_range;
} fz_de265_colour;

/* What the last call found, for messages and tests. */
typedef struct fz_de265_report {
    int pictures;  /* pictures libde265 gave */
    int width, height, chroma, bits;
    int warnings;  /* libde265 warnings seen (libheif ignores them too) */
    char reason[120];
} fz_de265_report;

/* hvcC's chroma format (0-3), luma/chroma bit depths and NAL length size, or -1 when the
   box body (after its 8-byte header) cannot be read as libheif 1.15 reads it. */
int fz_de265_hvcc_info(const uint8_t *hvcc, size_t size, int *chroma, int *luma_bits, int *chroma_bits,
                       int *length_size);

/* Decodes one tile: the hvcC body's parameter sets, then `data` (4-byte length-prefixed
   NAL units), on a decoder of its own with `workers` libde265 worker threads (0 when the
   grid decodes tiles side by side on --jobs threads of its own; 1-8 for a lone tile, whose
   deblocking and SAO then run beside its decode). The picture must be width x height.
   Only its rows [first_row, first_row + rows) are delivered, to `out`'s first `rows` rows:
   alpha = 0: their RGB goes to channels 0-2 of `out` (`channels` bytes a pixel, `stride`
   bytes a row); alpha = 1 (an alpha tile): their Y goes to channel 3. */
int fz_de265_decode_tile(const uint8_t *hvcc, size_t hvcc_size, const uint8_t *data, size_t data_size,
                         int width, int height, int first_row, int rows, const fz_de265_colour *colour, int alpha,
                         uint8_t *out, size_t stride, int channels, int workers, fz_de265_report *report);

/* Starts building libde265's tables (de265_init, about 5 ms) on a detached thread and
   returns at once; the first tile decoded waits for them. A hint: nothing fails without it. */
void fz_de265_warm_up(void);

/* Whether the constructor in fz_de265_early.c starts that warm-up before main: some of the
   first 32 arguments after the program's name, not options, ends in an extension
   fz_de265_early_extension lists, and `threads` (FORCEZOOM_THREADS, may be NULL) or else
   `cpus` allows more than one thread an image: FormatRegistry.warmUp's rule, in C. */
int fz_de265_early_warm_up_wanted(int argc, char *const *argv, const char *threads, long cpus);

/* The i-th extension (lower case) that calls for libde265, NULL past the last: HEIF's
   registration's, less AVIF (tested against the registry). */
const char *fz_de265_early_extension(int i);

/* The YCbCr -> RGB conversion alone (libheif 1.15's Op_YCbCr_to_RGB<uint8_t>), for tests:
   chroma 1 (4:2:0), 2 (4:2:2) or 3 (4:4:4). Returns FZ_DE265_UNSUPPORTED for a matrix it
   does not convert (12, 13). */
int fz_de265_convert(const uint8_t *y, int y_stride, const uint8_t *cb, int cb_stride, const uint8_t *cr,
                     int cr_stride, int width, int height, int chroma, int matrix, int full_range, uint8_t *out,
                     size_t stride, int channels);

/* Where a tile lies on a grid of blocks averaged before the conversion (issue 38: a
   thumbnail's whole-block pre-shrink done in Y'CbCr; fz_de265_blocks.c says why that is the
   average of the converted pixels but for their rounding and clipping). Tile pixels
   [x0, x1) x [y0, y1) are the ones shown; tile pixel (x, y) is shown at (origin_x + x,
   origin_y + y), which must not be negative; block (bx, by) holds the shown pixels
   [bx * fx, (bx + 1) * fx) x [by * fy, (by + 1) * fy), fx and fy 1...64. */
typedef struct fz_de265_blocks {
    int origin_x, origin_y;
    int x0, y0, x1, y1;
    int fx, fy;
} fz_de265_blocks;

/* The blocks the tile's shown pixels touch, across and down. */
void fz_blocks_extent(const fz_de265_blocks *blocks, int *columns, int *rows);

/* Decodes one tile (colour only) as fz_de265_decode_tile does and, instead of its RGB, gives
   for every block it touches the sums of R, G and B over the block's pixels in this tile,
   before rounding and clipping: `sums` holds columns x rows x 3 floats (fz_blocks_extent),
   row-major from the first block the tile touches. */
int fz_de265_decode_tile_blocks(const uint8_t *hvcc, size_t hvcc_size, const uint8_t *data, size_t data_size,
                                int width, int height, const fz_de265_colour *colour, const fz_de265_blocks *blocks,
                                float *sums, fz_de265_report *report);

/* The same sums over a tile already in RGB (channels 0-2 of `channels`, `stride` bytes a
   row): for tiles libheif decodes, and the tests. */
void fz_rgb_block_sums(const uint8_t *pixels, size_t stride, int channels, const fz_de265_blocks *blocks,
                       float *sums);

#endif
