// fz_jpeg.h: libjpeg-turbo behind setjmp (fz_jpeg.c); see fz_common.h for why.
#ifndef FZ_JPEG_H
#define FZ_JPEG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fz_common.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---------------------------------------------------------------------------------------
// JPEG reading (libjpeg-turbo). Output is gray (1 channel) or RGB (3 channels); CMYK and
// YCCK are converted to RGB here, Adobe-inverted CMYK included.
// ---------------------------------------------------------------------------------------

typedef struct fz_jpeg_header {
    uint32_t width, height;         ///< stored size
    int components;                 ///< in the file: 1, 3 or 4
    int color_space;                ///< J_COLOR_SPACE of the file
    int progressive, arithmetic;
    int sof_marker;                 ///< the frame's SOFn code (0xC0 baseline, 0xC1 extended, ...), 0 if not found
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
    const uint8_t *xmp;             ///< APP1 XMP packet after "http://ns.adobe.com/xap/1.0/\0", NULL if absent
    uint32_t xmp_length;
    const uint8_t *app13;           ///< the first APP13 "Photoshop 3.0\0" payload's 8BIM resources, or NULL
    uint32_t app13_length;
} fz_jpeg_header;

typedef struct fz_jpeg_reader fz_jpeg_reader;

/// What kind of failure an FZ_ERROR was, from libjpeg's message code (msg_code), not its
/// text: set whenever `message` is.
typedef enum fz_jpeg_failure {
    FZ_JPEG_CORRUPT = 1,                ///< anything else: the message says what
    FZ_JPEG_TRUNCATED = 2,              ///< the data ended early (JERR_INPUT_EOF, JWRN_JPEG_EOF)
    FZ_JPEG_UNSUPPORTED_PRECISION = 3,  ///< not 8-bit (JERR_BAD_PRECISION)
    FZ_JPEG_UNSUPPORTED_COLOR = 4,      ///< a colour space libjpeg cannot convert
    FZ_JPEG_UNSUPPORTED_PROCESS = 5,    ///< lossless or hierarchical coding (JERR_SOF_UNSUPPORTED)
    FZ_JPEG_SCAN_LIMIT = 6,             ///< more progressive scans than `max_scans`
    FZ_JPEG_MEMORY_LIMIT = 7,           ///< over `max_memory` (JERR_NO_BACKING_STORE)
    FZ_JPEG_WRITE_FAILED = 8,           ///< the output refused bytes (JERR_FILE_WRITE; errno says why)
} fz_jpeg_failure;

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
/// What the last FZ_ERROR was.
fz_jpeg_failure fz_jpeg_failure_of(const fz_jpeg_reader *reader);
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
    const uint8_t *app1_xmp; ///< a second APP1 payload (XMP's namespace + packet), may be NULL
    uint32_t app1_xmp_length;
    const uint8_t *app13;    ///< an APP13 payload ("Photoshop 3.0\0" + 8BIM resources), may be NULL
    uint32_t app13_length;
} fz_jpeg_spec;

/// Starts a JPEG on `file`. Why: jpeg_start_compress and jpeg_write_marker longjmp on I/O
/// failure or bad parameters.
int fz_jpeg_writer_begin(FILE *file, const fz_jpeg_spec *spec, fz_jpeg_writer **out);
int fz_jpeg_writer_rows(fz_jpeg_writer *writer, const uint8_t *rows, uint32_t count,
                        size_t stride);
int fz_jpeg_writer_end(fz_jpeg_writer *writer);
const char *fz_jpeg_writer_message(const fz_jpeg_writer *writer);
/// What the last FZ_ERROR was.
fz_jpeg_failure fz_jpeg_writer_failure_of(const fz_jpeg_writer *writer);
void fz_jpeg_writer_free(fz_jpeg_writer *writer);

#ifdef __cplusplus
}
#endif
#endif
