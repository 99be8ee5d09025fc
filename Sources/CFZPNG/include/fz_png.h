// fz_png.h: libpng behind setjmp (fz_png.c); see fz_common.h for why.
#ifndef FZ_PNG_H
#define FZ_PNG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fz_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What kind of failure an FZ_ERROR was. libpng has no error codes, only texts: the read
/// and write callbacks (fz_png.c) know a short read or a failed write for certain, and the
/// few texts libpng gives when the compressed data stops early are matched there, once.
typedef enum fz_png_failure {
    FZ_PNG_CORRUPT = 1,       ///< anything else: the message says what
    FZ_PNG_TRUNCATED = 2,     ///< the file or the compressed data ended before the image
    FZ_PNG_WRITE_FAILED = 3,  ///< the output refused bytes (errno holds the reason)
} fz_png_failure;

// ---------------------------------------------------------------------------------------
// PNG reading. Transforms are fixed: stored samples, no gamma; palette -> RGB(A);
// tRNS -> alpha; gray 1/2/4 -> 8 bits; 16 bits -> 8 bits by rounding (png_set_scale_16).
// ---------------------------------------------------------------------------------------

/// What the PNG header says, before and after forcezoom's transforms.
typedef struct fz_png_header {
    uint32_t width, height;
    int bit_depth;        ///< as stored: 1, 2, 4, 8 or 16
    int color_type;       ///< as stored: PNG_COLOR_TYPE_*
    int interlaced;       ///< 1 for Adam7
    int has_trns, has_gamma, has_iccp, has_chrm, has_srgb, has_sbit;
    double gamma;         ///< file gamma (gAMA), 0 when absent
    int channels;         ///< channels after the transforms: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA
    const uint8_t *exif;  ///< eXIf payload (owned by the reader), NULL when absent
    uint32_t exif_length;
    const uint8_t *icc;   ///< iCCP profile, inflated (owned by the reader), NULL when absent
    uint32_t icc_length;
    int srgb_intent;      ///< sRGB chunk's rendering intent, -1 when absent
    double chrm[8];       ///< cHRM white x,y, red x,y, green x,y, blue x,y (when has_chrm)
    const uint8_t *xmp_itxt;  ///< the iTXt chunk keyed XML:com.adobe.xmp before IDAT (the reader's), or NULL
    uint32_t xmp_itxt_length;
    int has_cicp;             ///< a cICP chunk (4 bytes) before IDAT
    uint8_t cicp[4];          ///< its primaries, transfer, matrix, full-range flag
} fz_png_header;

typedef struct fz_png_reader fz_png_reader;

/// Creates a reader on an open file and reads everything up to the first IDAT: the
/// header's facts (size, depth, colour type, interlacing, ancillary chunks) but nothing
/// sized by the image yet. `channels` stays 0 until fz_png_start.
/// Why: png_read_info longjmps on a bad signature, CRC or header. When it fails after a
/// valid IHDR, `width` and `height` still hold IHDR's values, so the caller can apply its
/// pixel limit to a file cut off after its header.
/// The reader is returned even on error (for its message); free it with fz_png_reader_free.
int fz_png_open(FILE *file, size_t chunk_malloc_max, fz_png_reader **out);
/// Sets forcezoom's transforms and lets libpng allocate its row buffers (about two rows
/// at the widest pixel depth, so call it only after checking the size). Fills `channels`.
/// Why: png_read_update_info longjmps (out of memory, bad transforms).
int fz_png_start(fz_png_reader *reader);
/// fz_png_start, but a 16-bit image keeps its 16-bit samples (big-endian, as stored):
/// rows are then 2 bytes a sample. Other depths are expanded to 8 bits as by fz_png_start.
int fz_png_start_keep16(fz_png_reader *reader);
/// The header read by fz_png_open.
const fz_png_header *fz_png_header_of(const fz_png_reader *reader);
/// The last error or warning text.
const char *fz_png_message(const fz_png_reader *reader);
/// What the last FZ_ERROR was.
fz_png_failure fz_png_failure_of(const fz_png_reader *reader);
/// Number of libpng warnings seen (benign errors, bad ancillary CRCs...).
int fz_png_warning_count(const fz_png_reader *reader);
/// Reads the next `count` rows of a non-interlaced image into `rows` (`stride` bytes apart).
/// Why: png_read_row longjmps on corrupt or truncated data. `*done` says how many rows arrived.
int fz_png_read_rows(fz_png_reader *reader, uint8_t *rows, uint32_t count, size_t stride,
                     uint32_t *done);
/// Reads a whole interlaced image (all Adam7 passes) into `pixels`.
/// Why: png_read_image longjmps. On error the rows decoded so far are kept.
int fz_png_read_interlaced(fz_png_reader *reader, uint8_t *pixels, size_t stride);
void fz_png_reader_free(fz_png_reader *reader);

// ---------------------------------------------------------------------------------------
// PNG writing: 8-bit gray, gray+alpha, RGB or RGBA, streamed row by row.
// ---------------------------------------------------------------------------------------

typedef struct fz_png_writer fz_png_writer;

/// The colour description written before the image data: an ICC profile (iCCP) or the
/// sRGB, gAMA and cHRM chunks, as the input had them (`--icc keep`).
typedef struct fz_png_color {
    const uint8_t *icc;   ///< NULL: no iCCP
    uint32_t icc_length;
    int srgb_intent;      ///< -1: no sRGB chunk
    double gamma;         ///< 0: no gAMA
    int has_chrm;
    double chrm[8];
} fz_png_color;
/// Starts a PNG on `file` at `bit_depth` 8 or 16 (16-bit rows are big-endian): header and
/// the colour description (`color` may be NULL) written, rows expected next. `level` is
/// zlib's 0-9, `filters` a PNG_FILTER_* mask (PNG_ALL_FILTERS for adaptive), `strategy`
/// zlib's. A profile libpng finds invalid is left out with a warning (benign errors), not a
/// failed write. Why: png_write_info longjmps on I/O failure.
int fz_png_writer_begin_depth(FILE *file, uint32_t width, uint32_t height, int channels, int bit_depth,
                              int level, int filters, int strategy, const fz_png_color *color,
                              fz_png_writer **out);
/// Writes `count` rows. Why: png_write_row longjmps on I/O or zlib failure.
int fz_png_writer_rows(fz_png_writer *writer, const uint8_t *rows, uint32_t count,
                       size_t stride);
/// Writes IEND and flushes. Why: png_write_end longjmps.
int fz_png_writer_end(fz_png_writer *writer);
const char *fz_png_writer_message(const fz_png_writer *writer);
/// What the last FZ_ERROR was (FZ_PNG_WRITE_FAILED: the file refused the bytes; errno says why).
fz_png_failure fz_png_writer_failure_of(const fz_png_writer *writer);
void fz_png_writer_free(fz_png_writer *writer);

/// Writes one chunk as given (the parallel encoder's IDAT and IEND chunks, after
/// fz_png_writer_begin wrote the signature, IHDR and the ancillary chunks). Why:
/// png_write_chunk longjmps on I/O failure.
int fz_png_writer_chunk(fz_png_writer *writer, const char name[5], const uint8_t *data, size_t length);
/// Flushes after the last chunk. Why: png_write_flush longjmps.
int fz_png_writer_flush(fz_png_writer *writer);

/// Everything a fixture PNG may carry. Rows are already packed at `bit_depth` (16-bit
/// samples big-endian, as PNG stores them).
typedef struct fz_png_spec {
    uint32_t width, height;
    int color_type;             ///< PNG_COLOR_TYPE_*
    int bit_depth;              ///< 1, 2, 4, 8, 16 as valid for the colour type
    int interlaced;             ///< Adam7
    const uint8_t *palette;     ///< RGB triples, palette images only
    int palette_count;
    const uint8_t *trns_alpha;  ///< per palette index alpha, palette images only
    int trns_count;
    int has_trns_color;         ///< gray/RGB images: one colour made transparent
    uint16_t trns_gray, trns_red, trns_green, trns_blue;
    const uint8_t *exif;        ///< eXIf payload (TIFF bytes), may be NULL
    uint32_t exif_length;
    const uint8_t *icc;         ///< iCCP profile, may be NULL
    uint32_t icc_length;
    int level, filters, strategy;
} fz_png_spec;

/// Writes a whole PNG from packed rows (`stride` bytes apart) in one call: fixtures need
/// every colour type, depth and interlacing, which png_write_image handles (it runs the
/// Adam7 passes itself). Why a shim: png_write_* longjmp. `message` gets libpng's text.
int fz_png_write_image(FILE *file, const fz_png_spec *spec, const uint8_t *rows, size_t stride,
                       char *message);

#ifdef __cplusplus
}
#endif
#endif
