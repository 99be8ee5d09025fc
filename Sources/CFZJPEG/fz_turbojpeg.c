// Lossless JPEG crops with TurboJPEG (see fz_turbojpeg.h for why they live here).
#include "fz_turbojpeg.h"
#include "fz_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

// Classified by TurboJPEG's message, the only thing it gives: libjpeg's JERR_OUT_OF_MEMORY
// ("Insufficient memory") is a memory limit, and tjDecompressHeader3's "Could not determine
// subsampling type" a sampling outside its grids (jpegtran -crop handles those; we cannot).
static void fz_tj_fail(fz_tj_header *header, fz_tj_failure failure, tjhandle handle) {
    const char *message = tjGetErrorStr2(handle);
    header->failure = failure;
    if (strstr(message, "Insufficient memory") != NULL) header->failure = FZ_TJ_OUT_OF_MEMORY;
    else if (strstr(message, "subsampling type") != NULL) header->failure = FZ_TJ_UNKNOWN_SAMPLING;
    snprintf(header->message, sizeof header->message, "%s", message);
}

int fz_tj_read_header(const unsigned char *jpeg, size_t size, fz_tj_header *header) {
    memset(header, 0, sizeof *header);
    tjhandle handle = tjInitTransform();
    if (!handle) {
        header->failure = FZ_TJ_NO_HANDLE;
        snprintf(header->message, sizeof header->message, "%s", tjGetErrorStr2(NULL));
        return FZ_ERROR;
    }
    int sampling = -1, colorspace = 0;
    int status = tjDecompressHeader3(handle, jpeg, (unsigned long)size, &header->width, &header->height, &sampling, &colorspace);
    if (status != 0) {
        fz_tj_fail(header, FZ_TJ_UNREADABLE, handle);
        tjDestroy(handle);
        return FZ_ERROR;
    }
    tjDestroy(handle);
    if (sampling < 0 || sampling >= TJ_NUMSAMP) {
        header->failure = FZ_TJ_UNKNOWN_SAMPLING;
        snprintf(header->message, sizeof header->message, "its chroma sampling is not one TurboJPEG can crop on a grid");
        return FZ_ERROR;
    }
    header->subsampling = sampling;
    header->mcu_width = tjMCUWidth[sampling];
    header->mcu_height = tjMCUHeight[sampling];
    return FZ_OK;
}

int fz_tj_crop(
    const unsigned char *jpeg, size_t size, int count, const fz_tj_rect *rects, int stop_on_warning,
    unsigned char **outputs, unsigned long *output_sizes, fz_tj_header *header) {
    header->failure = FZ_TJ_NONE;
    tjhandle handle = tjInitTransform();
    if (!handle) {
        header->failure = FZ_TJ_NO_HANDLE;
        snprintf(header->message, sizeof header->message, "%s", tjGetErrorStr2(NULL));
        return FZ_ERROR;
    }
    tjtransform *transforms = calloc((size_t)count, sizeof *transforms);
    if (!transforms) {
        tjDestroy(handle);
        header->failure = FZ_TJ_TRANSFORM;
        snprintf(header->message, sizeof header->message, "out of memory");
        return FZ_ERROR;
    }
    for (int i = 0; i < count; i++) {
        outputs[i] = NULL;
        output_sizes[i] = 0;
        transforms[i].r.x = rects[i].x;
        transforms[i].r.y = rects[i].y;
        transforms[i].r.w = rects[i].width;
        transforms[i].r.h = rects[i].height;
        transforms[i].op = TJXOP_NONE;
        // Markers are copied (no TJXOPT_COPYNONE): the EXIF, ICC and XMP stay as they were.
        transforms[i].options = TJXOPT_CROP;
    }
    int flags = stop_on_warning ? TJFLAG_STOPONWARNING : 0;
    int status = tjTransform(handle, jpeg, (unsigned long)size, count, outputs, output_sizes, transforms, flags);
    free(transforms);
    if (status != 0) {
        fz_tj_fail(header, FZ_TJ_TRANSFORM, handle);
        for (int i = 0; i < count; i++) {
            tjFree(outputs[i]);
            outputs[i] = NULL;
        }
        tjDestroy(handle);
        return FZ_ERROR;
    }
    tjDestroy(handle);
    return FZ_OK;
}

void fz_tj_free(unsigned char *buffer) { tjFree(buffer); }
