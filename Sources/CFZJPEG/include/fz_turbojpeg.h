// fz_turbojpeg.h: lossless JPEG crops through TurboJPEG's tjTransform (jpegtran's
// transupp, which Debian's libjpeg62-turbo does not export).
//
// TurboJPEG does not longjmp out (it catches libjpeg's errors itself and returns -1), but
// it is called only from here all the same, so Swift sees one C boundary per library, with
// statuses and messages as in the other shims (fz_common.h).
#ifndef FZ_TURBOJPEG_H
#define FZ_TURBOJPEG_H

#include <stddef.h>

/// Why a call failed.
typedef enum {
    FZ_TJ_NONE = 0,
    /// The data is no JPEG TurboJPEG can read, or is corrupt (the message says which).
    FZ_TJ_UNREADABLE = 1,
    /// The sampling is one TurboJPEG names no iMCU size for.
    FZ_TJ_UNKNOWN_SAMPLING = 2,
    /// The transform failed (a crop outside the image, out of memory; the message says).
    FZ_TJ_TRANSFORM = 3,
    /// No TurboJPEG handle could be made.
    FZ_TJ_NO_HANDLE = 4,
    /// libjpeg could not allocate (a process memory limit): no fault of the file.
    FZ_TJ_OUT_OF_MEMORY = 5,
} fz_tj_failure;

typedef struct {
    int width, height;
    /// The iMCU: the crop grid (8 or 16 by the sampling, 32 for 4:1:1).
    int mcu_width, mcu_height;
    /// TJSAMP_*.
    int subsampling;
    fz_tj_failure failure;
    char message[256];
} fz_tj_header;

typedef struct {
    int x, y, width, height;
} fz_tj_rect;

/// Reads the size and sampling of the JPEG in `jpeg`. FZ_OK or FZ_ERROR (see `failure`).
int fz_tj_read_header(const unsigned char *jpeg, size_t size, fz_tj_header *header);

/// Crops `count` rectangles (left and top on the iMCU grid) out of the JPEG in one pass
/// over its coefficients, copying every marker (EXIF, ICC, XMP, comments). Each output
/// is allocated by TurboJPEG: free them with `fz_tj_free`. On failure none is left
/// allocated. FZ_OK or FZ_ERROR (`header->failure` and `header->message` say why).
int fz_tj_crop(
    const unsigned char *jpeg, size_t size, int count, const fz_tj_rect *rects, int stop_on_warning,
    unsigned char **outputs, unsigned long *output_sizes, fz_tj_header *header);

void fz_tj_free(unsigned char *buffer);

#endif
