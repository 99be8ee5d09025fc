// fz_shims.h: the C boundary between forcezoom's Swift code and libpng / libjpeg-turbo.
//
// Why this exists: both libraries report fatal errors by longjmp (libpng's png_error,
// libjpeg's error_exit). A longjmp that crosses a Swift frame skips Swift's cleanup and is
// undefined behaviour. So every library call that can fail runs inside one of these
// functions, which does its own setjmp first, copies the library's message into the
// reader's/writer's `message` buffer, and returns a status (FZ_OK or FZ_ERROR). Swift only
// ever sees statuses and messages, and turns them into typed errors after the C call has
// returned. No function here calls back into Swift.
#ifndef FZ_SHIMS_H
#define FZ_SHIMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { FZ_OK = 0, FZ_ERROR = 1 };
enum { FZ_MESSAGE_MAX = 256 };

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

/// Starts a PNG on `file`: header written, rows expected next. `level` is zlib's 0-9,
/// `filters` a PNG_FILTER_* mask (PNG_ALL_FILTERS for adaptive), `strategy` zlib's.
/// Why: png_write_info longjmps on I/O failure.
int fz_png_writer_begin(FILE *file, uint32_t width, uint32_t height, int channels,
                        int level, int filters, int strategy, fz_png_writer **out);
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
/// fz_png_writer_begin with a colour description (`color` may be NULL). A profile libpng
/// finds invalid is left out with a warning (benign errors), not a failed write.
int fz_png_writer_begin_color(FILE *file, uint32_t width, uint32_t height, int channels,
                              int level, int filters, int strategy, const fz_png_color *color,
                              fz_png_writer **out);
/// fz_png_writer_begin_color at `bit_depth` 8 or 16 (16-bit rows are big-endian).
int fz_png_writer_begin_depth(FILE *file, uint32_t width, uint32_t height, int channels, int bit_depth,
                              int level, int filters, int strategy, const fz_png_color *color,
                              fz_png_writer **out);
/// Warnings libpng gave while writing (a profile it refused).
int fz_png_writer_warning_count(const fz_png_writer *writer);
/// Writes `count` rows. Why: png_write_row longjmps on I/O or zlib failure.
int fz_png_writer_rows(fz_png_writer *writer, const uint8_t *rows, uint32_t count,
                       size_t stride);
/// Writes IEND and flushes. Why: png_write_end longjmps.
int fz_png_writer_end(fz_png_writer *writer);
const char *fz_png_writer_message(const fz_png_writer *writer);
void fz_png_writer_free(fz_png_writer *writer);

/// Writes one chunk as given (the parallel encoder's IDAT and IEND chunks, after
/// fz_png_writer_begin wrote the signature, IHDR and the ancillary chunks). Why:
/// png_write_chunk longjmps on I/O failure.
int fz_png_writer_chunk(fz_png_writer *writer, const char name[5], const uint8_t *data, size_t length);
/// Flushes after the last chunk. Why: png_write_flush longjmps.
int fz_png_writer_flush(fz_png_writer *writer);

// ---------------------------------------------------------------------------------------
// The parallel PNG encoder's pure parts (fz_deflate.c; zlib only, nothing longjmps): rows
// filtered as PNG filter bytes + filtered bytes, then bands of them deflated independently,
// each as raw deflate ended by a sync flush (the last by finish), with the 32 KiB before
// the band as its dictionary. Concatenated behind a zlib header and followed by the Adler-32
// of the whole (zlib's adler32_combine), they are one zlib stream: pigz's technique.
// ---------------------------------------------------------------------------------------

/// Filters `count` rows (`row_bytes` each, `stride` apart) into `out` (count * (row_bytes + 1)
/// bytes). `filter`: 0-4 one PNG filter type for every row, 5 adaptive (libpng's heuristic:
/// the least sum of signed magnitudes). `previous` is the row above the first (NULL: zeros).
/// `scratch` holds 6 * row_bytes bytes, the last row_bytes of them zero.
void fz_png_filter_rows(const uint8_t *rows, size_t stride, const uint8_t *previous, uint32_t count,
                        size_t row_bytes, int bpp, int filter, uint8_t *out, uint8_t *scratch);
/// Deflates one band (raw deflate, `level`/`strategy` as zlib's) into a malloc'd buffer the
/// caller frees with fz_free. FZ_ERROR on zlib failure or no memory. Z_RLE (strategy 3) at
/// levels 1-9 goes through fz_rle_deflate, which reads only the dictionary's last byte.
int fz_deflate_band(const uint8_t *data, size_t length, const uint8_t *dictionary, size_t dictionary_length,
                    int level, int strategy, int last, uint8_t **out, size_t *out_length);
void fz_free(void *pointer);
/// Raw deflate of `data` as zlib's Z_RLE strategy codes it (literals and runs at distance
/// 1, dynamic Huffman blocks), but faster (fz_rle_deflate.c). `previous` is the byte before
/// the data (-1: none). Not `last`: ends with a sync flush's empty stored block, on a byte
/// boundary, so another band's stream can follow; `last`: the final block. `out` holds
/// fz_rle_deflate_bound(length) bytes. FZ_ERROR when out of memory.
size_t fz_rle_deflate_bound(size_t length);
int fz_rle_deflate(const uint8_t *data, size_t length, int previous, int last, uint8_t *out, size_t *out_length);

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

// ---------------------------------------------------------------------------------------
// JPEG reading (libjpeg-turbo). Output is gray (1 channel) or RGB (3 channels); CMYK and
// YCCK are converted to RGB here, Adobe-inverted CMYK included.
// ---------------------------------------------------------------------------------------

typedef struct fz_jpeg_header {
    uint32_t width, height;         ///< stored size
    int components;                 ///< in the file: 1, 3 or 4
    int color_space;                ///< J_COLOR_SPACE of the file
    int progressive, arithmetic;
    int data_precision;             ///< 8, or 12 (refused by the caller)
    int multiple_scans;             ///< progressive or multi-scan: libjpeg buffers every coefficient
    int h_samp[4], v_samp[4];       ///< per component sampling factors
    int saw_adobe, adobe_transform;
    int has_icc;
    const uint8_t *icc;             ///< the ICC profile reassembled from APP2 (owned by the reader), NULL if absent
    uint32_t icc_length;
    int channels;                   ///< channels forcezoom will output: 1 or 3
    const uint8_t *exif;            ///< APP1 Exif payload after "Exif\0\0", NULL if absent
    uint32_t exif_length;
} fz_jpeg_header;

typedef struct fz_jpeg_reader fz_jpeg_reader;

/// How the message of a decode stopped by the scan limit starts.
#define FZ_JPEG_SCAN_LIMIT_PREFIX "progressive JPEG has more than"

/// Creates a reader on an open file positioned at its start and reads the header with
/// APP1/APP2 saved. The stdio source blocks rather than suspends, which arithmetic-coded
/// files need, and keeps only a 4 KB buffer. `strict` turns libjpeg's corrupt-data
/// warnings into errors. `max_scans` bounds progressive scans (0 = no limit).
/// `max_memory` is libjpeg's max_memory_to_use (0 = no limit): whole-image coefficient
/// buffers larger than it fail with "Backing store not supported" instead of allocating.
/// Why: jpeg_read_header longjmps. The reader is returned even on error, for its message;
/// if the SOF was read before the error, `width` and `height` hold its values.
int fz_jpeg_open(FILE *file, int strict, int max_scans, size_t max_memory, fz_jpeg_reader **out);
const fz_jpeg_header *fz_jpeg_header_of(const fz_jpeg_reader *reader);
const char *fz_jpeg_message(const fz_jpeg_reader *reader);
int fz_jpeg_warning_count(const fz_jpeg_reader *reader);
/// Starts decompression at 1/`scale_denom` (1, 2, 4, 8) and restricts output columns to
/// [x, x + width) of the scaled image (jpeg_crop_scanline widens that to iMCU bounds;
/// `*out_x`, `*out_width` report what libjpeg chose; width 0 = all). `*out_height` is
/// the scaled height. Why: jpeg_start_decompress longjmps.
int fz_jpeg_start(fz_jpeg_reader *reader, int scale_denom, uint32_t x, uint32_t width,
                  uint32_t *out_x, uint32_t *out_width, uint32_t *out_height);
/// Converts CMYK and YCCK rows to sRGB through the CMYK profile `icc` (copied into a
/// cached lcms2 transform) instead of the plain formula; Adobe inversion is taken from the
/// file. FZ_ERROR with `message` filled when lcms2 cannot use the profile (the reader then
/// keeps the formula). Call after fz_jpeg_open, before reading rows.
int fz_jpeg_use_cmyk_profile(fz_jpeg_reader *reader, const uint8_t *icc, size_t length, int intent, int bpc,
                             char *message);
/// Skips `count` output rows without color conversion (jpeg_skip_scanlines).
int fz_jpeg_skip_rows(fz_jpeg_reader *reader, uint32_t count);
/// Reads `count` output rows, `stride` bytes apart, converted to gray or RGB.
/// `*done` says how many rows arrived before an error.
int fz_jpeg_read_rows(fz_jpeg_reader *reader, uint8_t *rows, uint32_t count, size_t stride,
                      uint32_t *done);
void fz_jpeg_reader_free(fz_jpeg_reader *reader);

// ---------------------------------------------------------------------------------------
// JPEG writing (fixtures and thumbnails): 8-bit gray or RGB, optional APP1 (EXIF).
// ---------------------------------------------------------------------------------------

typedef struct fz_jpeg_writer fz_jpeg_writer;

/// How a JPEG is coded (fixtures exercise every form the decoder must read).
typedef struct fz_jpeg_spec {
    uint32_t width, height;
    int channels;        ///< input: 1 gray, 3 RGB, 4 CMYK (Adobe-inverted: 0 = full ink)
    int quality;
    int subsampling;     ///< 444, 422, 420, 440 or 411 (colour inputs)
    int progressive;
    int arithmetic;      ///< arithmetic coding instead of Huffman
    int rgb_coded;       ///< store RGB without the YCbCr transform
    int ycck;            ///< CMYK input stored as YCCK
    int restart_rows;    ///< restart marker every N MCU rows (0 = none)
    const uint8_t *app1; ///< APP1 payload ("Exif\0\0" + TIFF), may be NULL
    uint32_t app1_length;
    const uint8_t *icc;  ///< an ICC profile, written as APP2 ICC_PROFILE segments, may be NULL
    uint32_t icc_length;
} fz_jpeg_spec;

/// Starts a JPEG on `file`. Why: jpeg_start_compress and jpeg_write_marker longjmp on I/O
/// failure or bad parameters.
int fz_jpeg_writer_begin(FILE *file, const fz_jpeg_spec *spec, fz_jpeg_writer **out);
int fz_jpeg_writer_rows(fz_jpeg_writer *writer, const uint8_t *rows, uint32_t count,
                        size_t stride);
int fz_jpeg_writer_end(fz_jpeg_writer *writer);
const char *fz_jpeg_writer_message(const fz_jpeg_writer *writer);
void fz_jpeg_writer_free(fz_jpeg_writer *writer);

// ---------------------------------------------------------------------------------------
// Colour conversion to sRGB with lcms2 (fz_color.c): `--icc srgb`.
// ---------------------------------------------------------------------------------------
typedef struct fz_color_transform fz_color_transform;
/// A transform from the pixels an ICC profile describes (`channels`: 1 gray, 2 gray+alpha,
/// 3 RGB, 4 RGBA, 8 bits) to sRGB (gray: gray with sRGB's tone curve), alpha copied.
/// `intent`: 0 perceptual, 1 relative colorimetric, 2 saturation, 3 absolute colorimetric;
/// `bpc`: black-point compensation. FZ_ERROR with `message` (FZ_MESSAGE_MAX bytes) filled
/// when lcms2 cannot read the profile or it does not describe such pixels.
/// Why here: lcms2 reports errors through a log handler, kept in C.
int fz_color_to_srgb_create(const uint8_t *icc, size_t length, int channels, int intent, int bpc,
                            fz_color_transform **out, char *message);
/// The same at 16 bits a sample, big-endian as PNG stores them (`Image16`).
int fz_color_to_srgb16_create(const uint8_t *icc, size_t length, int channels, int intent, int bpc,
                              fz_color_transform **out, char *message);
/// The same from Adobe CMYK (`inverted`: 0 = full ink, as Photoshop writes it) or plain
/// CMYK (4 bytes a pixel) to 8-bit sRGB (3 bytes), through a CMYK profile.
int fz_color_cmyk_to_srgb_create(const uint8_t *icc, size_t length, int inverted, int intent, int bpc,
                                 fz_color_transform **out, char *message);
/// A transform from 8-bit sRGB into the space of an RGB profile: forcezoom's own drawn
/// colours (given in sRGB) on an image kept in its own space; `channels` 3 (RGB) or 4 (RGBA,
/// alpha copied). Not cached; free it.
int fz_color_from_srgb_create(const uint8_t *icc, size_t length, int channels, int intent, fz_color_transform **out,
                              char *message);
/// FZ_OK when lcms2 can read the profile and the tags a transform from it would use (its
/// LUT, or its colorants and tone curves; a CMYK profile's LUT): what `--icc keep` checks
/// before copying a profile and `--cmyk-profile` before using one, without the cost of
/// building a transform. Otherwise the reason in `message`.
int fz_color_profile_readable(const uint8_t *icc, size_t length, char *message);
/// Converts `pixels` pixels from `src` to `dst` (may be the same buffer).
void fz_color_apply(const fz_color_transform *transform, const uint8_t *src, uint8_t *dst, size_t pixels);
void fz_color_free(fz_color_transform *transform);

#ifdef __cplusplus
}
#endif
#endif
