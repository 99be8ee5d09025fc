// fz_tiff.h: libtiff behind C-side handlers (fz_tiff.c).
//
// libtiff does not longjmp, but it reports errors and warnings through C varargs handlers
// and would print them to stderr: the handlers here format them into the reader's
// `message` (the last error, the last warning) and print nothing, so Swift gets statuses
// and one line. The reader also owns the decoded strips or tiles of one band (a strip, or
// one row of tiles across the requested columns) and turns their samples into forcezoom's
// pixels (8 bits, or 16 big-endian), so a crop decodes only the strips or tiles it touches.
#ifndef FZ_TIFF_H
#define FZ_TIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fz_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fz_tiff fz_tiff;

/// What the current directory says (TIFFGetField with libtiff's defaults).
typedef struct fz_tiff_info {
    uint32_t width, height;
    uint16_t bits, spp, photometric, planar, compression, sample_format;
    uint16_t orientation;            ///< 1-8 (1 when absent)
    uint16_t extra_type;             ///< first extra sample: 0 unspecified, 1 associated, 2 unassociated alpha
    uint16_t extra_count;
    uint16_t inkset;                 ///< 1 CMYK
    uint32_t subfile_type;           ///< NewSubfileType (bit 0: a reduced-resolution copy)
    int tiled;
    uint32_t tile_width, tile_height, rows_per_strip;
    int has_colormap;
    uint32_t subifd_count;           ///< SubIFDs of this directory (pyramid levels some writers use)
} fz_tiff_info;

/// How `fz_tiff_start` delivers rows.
enum {
    FZ_TIFF_GRAY = 0,      ///< gray (MinIsBlack/MinIsWhite) [+ alpha]
    FZ_TIFF_RGB = 1,       ///< RGB [+ alpha]; YCbCr-in-JPEG converted by libjpeg
    FZ_TIFF_PALETTE = 2,   ///< palette to RGB
    FZ_TIFF_CMYK = 3,      ///< CMYK (8 or 16 bit) to RGB, through a profile or the formula
    FZ_TIFF_RGBA_IMAGE = 4 ///< anything else TIFFRGBAImage reads, whole (RGB or RGBA out)
};

typedef struct fz_tiff_plan {
    int mode;               ///< FZ_TIFF_*
    int out_channels;       ///< 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA
    int deep;               ///< 16-bit big-endian samples out (16-bit gray/RGB only)
    int unpremultiply;      ///< associated alpha: divide the colour by it (as Pillow's RGBa)
    uint32_t x0, x1;        ///< the columns delivered
} fz_tiff_plan;

/// Opens a TIFF from `stream` (at its start; read through, never closed here). `max_alloc`
/// is libtiff's largest single allocation (TIFFOpenOptionsSetMaxSingleMemAlloc; 0: none).
/// FZ_ERROR with `message` (FZ_MESSAGE_MAX bytes) filled when libtiff cannot read it; `*out`
/// is then NULL.
int fz_tiff_open(FILE *stream, int64_t max_alloc, fz_tiff **out, char *message);
void fz_tiff_close(fz_tiff *t);
/// Walks the directories (pages and reduced copies) once, at most `limit`, each one's facts
/// into `infos` (room for `limit`); their count, or -1 on a loop or an unreadable first
/// directory (message filled). A later directory that does not read ends the walk.
int fz_tiff_scan(fz_tiff *t, fz_tiff_info *infos, int limit, char *message);
/// Makes directory `index` current (or, with `subifd_offset` non-zero, that sub-IFD) and
/// reads its facts.
int fz_tiff_select(fz_tiff *t, int index, uint64_t subifd_offset, fz_tiff_info *info, char *message);
/// The current directory's SubIFD offsets (up to `max`), their count returned.
int fz_tiff_subifds(fz_tiff *t, uint64_t *offsets, int max);
/// The current directory's ICC profile (34675) or XMP packet (700); NULL when absent.
/// Valid until the directory changes.
const uint8_t *fz_tiff_icc(fz_tiff *t, uint32_t *length);
const uint8_t *fz_tiff_xmp(fz_tiff *t, uint32_t *length);
/// Whether TIFFRGBAImage can read the current directory (message says why not).
int fz_tiff_rgba_ok(fz_tiff *t, char *message);
/// Asks libjpeg for RGB out of a YCbCr JPEG-compressed directory (TIFFTAG_JPEGCOLORMODE).
void fz_tiff_jpeg_to_rgb(fz_tiff *t);
/// Converts CMYK through a CMYK profile (fz_color.c); FZ_ERROR when lcms2 cannot use it.
int fz_tiff_use_cmyk_profile(fz_tiff *t, const uint8_t *icc, size_t length, int intent, int bpc, char *message);
/// The bytes the decoding buffers of `plan` need (one band, or the whole RGBA image).
int64_t fz_tiff_memory_needed(fz_tiff *t, const fz_tiff_plan *plan);
/// Starts delivering rows of the current directory as `plan` says.
int fz_tiff_start(fz_tiff *t, const fz_tiff_plan *plan, char *message);
/// Moves past `rows` rows without decoding them (their band decodes only if a later row
/// of it is read).
void fz_tiff_skip(fz_tiff *t, uint32_t rows);
/// Reads the next row into `dst` ((x1 - x0) * out_channels * (deep ? 2 : 1) bytes).
/// FZ_ERROR with `message` when a strip or tile does not decode; with `lenient`, the band
/// is zeros, `*warned` is set, and FZ_OK is returned.
int fz_tiff_read_row(fz_tiff *t, uint8_t *dst, int lenient, int *warned, char *message);

/* Whether libtiff opens and has every function the forwarders call: 1, or 0 with the dlerror
   text in `why` (fz_loader_available, checked once). Asked before the first forwarder. */
int fz_tiff_available(char *why, size_t size);
/* The soname of library `slot` (0, 1...), or NULL past the last. */
const char *fz_tiff_soname(int slot);

#ifdef __cplusplus
}
#endif
#endif
