// Over the usual length on purpose: libde265's pointers (one decoder context a tile) and
// the colour conversion that must equal libheif 1.15's, kept together so the one reads the
// other's planes without a copy.
//
// What libheif 1.15.1 does with a tile, and so what this file does (read in its sources:
// libheif/plugins/heif_decoder_libde265.cc, heif_context.cc, heif_colorconversion.cc,
// nclx.cc):
// - the hvcC's NAL units, every array in order, each pushed whole (Box_hvcC::get_headers),
//   then the tile's data split at 4-byte big-endian lengths, whatever hvcC's
//   lengthSizeMinusOne says (libde265_v1_push_data): other length sizes go to libheif;
// - de265_flush_data, then de265_decode while it says "more", the LAST picture it gives
//   being the image (decode errors end the loop and are not errors if a picture came);
// - the picture's nclx is its VUI (matrix, primaries, range; libde265 maps matrix >= 11
//   and unknown primaries to 2), replaced by the item's colr nclx when there is one;
// - Op_YCbCr_to_RGB<uint8_t> to planar RGB: the chroma sample at (x >> shiftH, y >> shiftV)
//   (nearest, no upsampling filter), matrix 0 (GBR, limited range scaled by 219/256),
//   matrix 8 (YCgCo, range ignored), else float maths on Kr/Kb (nclx.cc's table, BT.601's
//   defaults for unknown matrices) with limited range expanded by 1.1689 and 1.1429, then
//   (long)(v + 0.5f) clipped to 0..255;
// - the alpha item's Y plane as it is (no range conversion), interleaved as the 4th sample.
// The float expressions are written as libheif writes them and evaluated in float without
// contraction (FP_CONTRACT OFF; x86-64 libheif builds have no FMA), so results are equal
// bit for bit; the tests compare every tile of the phone files and the synthetic grids.

#include "fz_de265.h"
#include "fz_de265_internal.h"

#include <libde265/de265.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF

/* libde265's tables are built by de265_init and freed when its last reference goes: one
   reference held for the process, so they are not rebuilt for every tile's decoder. */
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static void hold_tables(void) { (void)de265_init(); }

static void *warm_up_tables(void *unused) {
    (void)unused;
    pthread_once(&tables_once, hold_tables);
    return NULL;
}

void fz_de265_warm_up(void) {
    // de265_init builds its scan-position tables by a quadratic search (about 5 ms, a fifth
    // of a one-tile crop): begun on a thread of its own while the caller parses its
    // arguments, the first tile's pthread_once then waits only for what is left of it.
    // One thread a process: the constructor in fz_de265_early.c may have started it.
    static atomic_int started;
    if (atomic_exchange(&started, 1)) return;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_t thread;
    (void)pthread_create(&thread, &attr, warm_up_tables, NULL);  // none: the first tile builds them
    pthread_attr_destroy(&attr);
}

static void say(fz_de265_report *report, const char *what) {
    if (report) snprintf(report->reason, sizeof report->reason, "%s", what);
}

int fz_de265_hvcc_info(const uint8_t *h, size_t size, int *chroma, int *luma_bits, int *chroma_bits,
                       int *length_size) {
    if (size < 23) return -1;
    *chroma = h[16] & 3;
    *luma_bits = (h[17] & 7) + 8;
    *chroma_bits = (h[18] & 7) + 8;
    *length_size = (h[21] & 3) + 1;
    // Every array must lie inside the box (libheif's parse would stop at a short read).
    size_t i = 23;
    int arrays = h[22];
    for (int a = 0; a < arrays; a++) {
        if (i + 3 > size) return -1;
        int units = h[i + 1] << 8 | h[i + 2];
        i += 3;
        for (int u = 0; u < units; u++) {
            if (i + 2 > size) return -1;
            size_t n = (size_t)(h[i] << 8 | h[i + 1]);
            i += 2;
            if (n > size - i) return -1;
            i += n;
        }
    }
    return 0;
}

/* Pushes hvcC's NAL units (libheif ignores empty ones). */
static void push_headers(de265_decoder_context *ctx, const uint8_t *h, size_t size) {
    size_t i = 23;
    int arrays = h[22];
    for (int a = 0; a < arrays; a++) {
        int units = h[i + 1] << 8 | h[i + 2];
        i += 3;
        for (int u = 0; u < units; u++) {
            size_t n = (size_t)(h[i] << 8 | h[i + 1]);
            i += 2;
            if (n > 0) de265_push_NAL(ctx, h + i, (int)n, 0, NULL);
            i += n;
        }
    }
    (void)size;
}

static inline uint8_t clip_i(int x) { return x < 0 ? 0 : (x > 255 ? 255 : (uint8_t)x); }

/* One row of the float matrices (all but 0 and 8): libheif's per-pixel expression, in loops
   simple enough for the compiler to vectorise (the same IEEE single-precision operations in
   the same order, so the same results), rounded as libheif's clip_f_u16 does, (long)(v + 0.5f)
   then clipped (an int32_t truncates as long does for these values, within +-1000).
   `f` holds 6 rows of `width` floats. */
static inline void float_row(const uint8_t *yr, const uint8_t *cbr, const uint8_t *crr, int width, int shiftH,
                             int full_range, float r_cr, float g_cb, float g_cr, float b_cb, uint8_t *o, int channels,
                             float *f) {
    float *restrict yv = f, *restrict u = f + width, *restrict v = f + 2 * width;
    int32_t *restrict r = (int32_t *)(f + 3 * width), *restrict g = (int32_t *)(f + 4 * width),
                      *restrict b = (int32_t *)(f + 5 * width);
    for (int x = 0; x < width; x++) {
        yv[x] = (float)yr[x];
        u[x] = (float)(cbr[x >> shiftH] - 128);
        v[x] = (float)(crr[x >> shiftH] - 128);
    }
    if (!full_range) {
        const float offset = 16.0f;
        for (int x = 0; x < width; x++) {
            yv[x] = (yv[x] - offset) * 1.1689f;
            u[x] = u[x] * 1.1429f;
            v[x] = v[x] * 1.1429f;
        }
    }
    for (int x = 0; x < width; x++) {
        r[x] = (int32_t)(yv[x] + r_cr * v[x] + 0.5f);
        g[x] = (int32_t)(yv[x] + g_cb * u[x] + g_cr * v[x] + 0.5f);
        b[x] = (int32_t)(yv[x] + b_cb * u[x] + 0.5f);
    }
    for (int x = 0; x < width; x++, o += channels) {
        o[0] = clip_i(r[x]);
        o[1] = clip_i(g[x]);
        o[2] = clip_i(b[x]);
    }
}

/* nclx.cc's get_Kr_Kb and get_YCbCr_to_RGB_coefficients, in float as there: R's Cr, G's Cb
   and Cr, B's Cb factors (BT.601's for matrices it has no Kr/Kb for). */
void fz_de265_coefficients(int matrix, float k[4]) {
    float kr = 0, kb = 0;
    switch (matrix) {
    case 1: kr = 0.2126f; kb = 0.0722f; break;
    case 4: kr = 0.30f; kb = 0.11f; break;
    case 5:
    case 6: kr = 0.299f; kb = 0.114f; break;
    case 7: kr = 0.212f; kb = 0.087f; break;
    case 9:
    case 10: kr = 0.2627f; kb = 0.0593f; break;
    default: break;
    }
    float r_cr = 1.402f, g_cb = -0.344136f, g_cr = -0.714136f, b_cb = 1.772f;
    if (kb != 0 || kr != 0) {
        r_cr = 2 * (-kr + 1);
        g_cb = 2 * kb * (-kb + 1) / (kb + kr - 1);
        g_cr = 2 * kr * (-kr + 1) / (kb + kr - 1);
        b_cb = 2 * (-kb + 1);
    }
    k[0] = r_cr;
    k[1] = g_cb;
    k[2] = g_cr;
    k[3] = b_cb;
}

/* Built for AVX2 too, float_row inlined into each (chosen at run time: 8 floats an
   instruction instead of 4, the same IEEE operations, AVX2 having no fused multiply-add). */
__attribute__((target_clones("avx2", "default"))) static int fz_de265_convert_rows(const uint8_t *y, int y_stride, const uint8_t *cb, int cb_stride, const uint8_t *cr,
                     int cr_stride, int width, int first_row, int row_count, int chroma, int matrix, int full_range, uint8_t *out,
                     size_t stride, int channels) {
    if (matrix == 12 || matrix == 13 || chroma < 1 || chroma > 3) return FZ_DE265_UNSUPPORTED;
    int shiftH = chroma == 3 ? 0 : 1;
    int shiftV = chroma == 1 ? 1 : 0;
    float k[4];
    fz_de265_coefficients(matrix, k);
    float r_cr = k[0], g_cb = k[1], g_cr = k[2], b_cb = k[3];
    // Six rows of floats for float_row (Y, Cb, Cr expanded, then R, G, B as integers).
    float *rows = malloc(sizeof(float) * 6 * (size_t)(width > 0 ? width : 1));
    if (!rows) return FZ_DE265_FAILED;
    // Picture row j (4:2:0 chroma row j >> 1, counted from the picture's top whatever the
    // first row) goes to out's row j - first_row.
    for (int j = first_row; j < first_row + row_count; j++) {
        const uint8_t *yr = y + (size_t)j * y_stride;
        const uint8_t *cbr = cb + (size_t)(j >> shiftV) * cb_stride;
        const uint8_t *crr = cr + (size_t)(j >> shiftV) * cr_stride;
        uint8_t *o = out + (size_t)(j - first_row) * stride;
        if (matrix == 0) {
            for (int x = 0; x < width; x++, o += channels) {
                int c = x >> shiftH;
                if (full_range) {
                    o[0] = crr[c];
                    o[1] = yr[x];
                    o[2] = cbr[c];
                } else {
                    o[0] = (uint8_t)(((crr[c] * 219 + 128) >> 8) + 16);
                    o[1] = (uint8_t)(((yr[x] * 219 + 128) >> 8) + 16);
                    o[2] = (uint8_t)(((cbr[c] * 219 + 128) >> 8) + 16);
                }
            }
        } else if (matrix == 8) {
            for (int x = 0; x < width; x++, o += channels) {
                int c = x >> shiftH;
                int yv = yr[x], u = cbr[c] - 128, v = crr[c] - 128;
                o[0] = clip_i(yv - u + v);
                o[1] = clip_i(yv + u);
                o[2] = clip_i(yv - u - v);
            }
        } else {
            float_row(yr, cbr, crr, width, shiftH, full_range, r_cr, g_cb, g_cr, b_cb, o, channels, rows);
        }
    }
    free(rows);
    return FZ_DE265_OK;
}

int fz_de265_convert(const uint8_t *y, int y_stride, const uint8_t *cb, int cb_stride, const uint8_t *cr,
                     int cr_stride, int width, int height, int chroma, int matrix, int full_range, uint8_t *out,
                     size_t stride, int channels) {
    return fz_de265_convert_rows(y, y_stride, cb, cb_stride, cr, cr_stride, width, 0, height, chroma, matrix,
                                 full_range, out, stride, channels);
}

void fz_de265_picture_matrix(const struct de265_image *img, const fz_de265_colour *colour, int *matrix,
                             int *full) {
    if (colour && colour->has_nclx) {
        *matrix = colour->matrix;
        *full = colour->full_range;
    } else {
        // libheif's heif_nclx_color_profile_set_matrix_coefficients keeps 0...14; libde265
        // has already mapped 11 and above to 2.
        *matrix = de265_get_image_matrix_coefficients(img);
        *full = de265_get_image_full_range_flag(img) != 0;
    }
}

/* The picture into `out`, or why not. */
static int take_picture(const struct de265_image *img, int width, int height, int first_row, int rows,
                        const fz_de265_colour *colour, int alpha, uint8_t *out, size_t stride, int channels,
                        fz_de265_report *report) {
    int w = de265_get_image_width(img, 0), h = de265_get_image_height(img, 0);
    int chroma = (int)de265_get_chroma_format(img);
    int bits = de265_get_bits_per_pixel(img, 0);
    if (report) {
        report->width = w;
        report->height = h;
        report->chroma = chroma;
        report->bits = bits;
    }
    if (w != width || h != height) {
        say(report, "the picture's size is not the tile's");
        return FZ_DE265_UNSUPPORTED;
    }
    if (bits != 8 || (chroma != de265_chroma_mono && (de265_get_bits_per_pixel(img, 1) != 8 ||
                                                       de265_get_bits_per_pixel(img, 2) != 8))) {
        say(report, "not 8 bits a sample");
        return FZ_DE265_UNSUPPORTED;
    }
    int ys;
    const uint8_t *y = de265_get_image_plane(img, 0, &ys);
    if (!y) return FZ_DE265_FAILED;
    if (alpha) {
        for (int j = first_row; j < first_row + rows; j++) {
            const uint8_t *src = y + (size_t)j * ys;
            uint8_t *o = out + (size_t)(j - first_row) * stride + 3;
            for (int x = 0; x < w; x++, o += channels) *o = src[x];
        }
        return FZ_DE265_OK;
    }
    if (chroma == de265_chroma_mono) {
        say(report, "monochrome");
        return FZ_DE265_UNSUPPORTED;
    }
    int matrix, full;
    fz_de265_picture_matrix(img, colour, &matrix, &full);
    int cbs, crs;
    const uint8_t *cb = de265_get_image_plane(img, 1, &cbs);
    const uint8_t *cr = de265_get_image_plane(img, 2, &crs);
    if (!cb || !cr) return FZ_DE265_FAILED;
    int r = fz_de265_convert_rows(y, ys, cb, cbs, cr, crs, w, first_row, rows, chroma, matrix, full, out, stride,
                                  channels);
    if (r != FZ_DE265_OK) say(report, "a matrix this path does not convert");
    return r;
}

int fz_de265_decode_with(const uint8_t *hvcc, size_t hvcc_size, const uint8_t *data, size_t data_size,
                         int alpha, int workers, fz_de265_take take, void *context, fz_de265_report *report) {
    if (report) memset(report, 0, sizeof *report);
    int chroma, luma, chroma_bits, length;
    if (fz_de265_hvcc_info(hvcc, hvcc_size, &chroma, &luma, &chroma_bits, &length) != 0) {
        say(report, "hvcC cannot be read");
        return FZ_DE265_UNSUPPORTED;
    }
    if (length != 4 || luma != 8 || chroma_bits != 8 || (chroma == 0 && !alpha)) {
        say(report, "hvcC: not 8-bit colour with 4-byte NAL lengths");
        return FZ_DE265_UNSUPPORTED;
    }
    // The NAL units must split the data exactly (libheif fails otherwise).
    for (size_t i = 0; i < data_size;) {
        if (data_size - i < 4) return FZ_DE265_FAILED;
        size_t n = (size_t)data[i] << 24 | (size_t)data[i + 1] << 16 | (size_t)data[i + 2] << 8 | data[i + 3];
        if (n > data_size - i - 4 || n > 0x7FFFFFFF) return FZ_DE265_FAILED;
        i += 4 + n;
    }
    pthread_once(&tables_once, hold_tables);
    de265_decoder_context *ctx = de265_new_decoder();
    if (!ctx) return FZ_DE265_FAILED;
    // Worker threads run the deblocking and SAO of the picture's rows beside its decode (as
    // libheif starts one); none when the caller decodes tiles side by side already.
    if (workers > 0) (void)de265_start_worker_threads(ctx, workers > 8 ? 8 : workers);  // none: decoded on this thread
    push_headers(ctx, hvcc, hvcc_size);
    for (size_t i = 0; i < data_size;) {
        size_t n = (size_t)data[i] << 24 | (size_t)data[i + 1] << 16 | (size_t)data[i + 2] << 8 | data[i + 3];
        de265_push_NAL(ctx, data + i + 4, (int)n, 0, NULL);
        i += 4 + n;
    }
    de265_flush_data(ctx);
    int result = FZ_DE265_FAILED;
    int more;
    do {
        more = 0;
        de265_error err = de265_decode(ctx, &more);
        if (err != DE265_OK) break;
        while (de265_get_warning(ctx) != DE265_OK && report) report->warnings++;
        const struct de265_image *img = de265_get_next_picture(ctx);
        if (img) {
            if (report) report->pictures++;
            result = take(img, context, report);
            de265_release_next_picture(ctx);
            // libheif returns the first conversion that fails.
            if (result != FZ_DE265_OK) break;
        }
    } while (more);
    if (result == FZ_DE265_FAILED && report && !report->reason[0]) say(report, "libde265 gave no picture");
    de265_free_decoder(ctx);
    return result;
}

/* fz_de265_decode_tile's arguments for take_picture. */
struct picture_target {
    int width, height, first_row, rows, alpha, channels;
    const fz_de265_colour *colour;
    uint8_t *out;
    size_t stride;
};

static int take_into(const struct de265_image *img, void *context, fz_de265_report *report) {
    const struct picture_target *t = context;
    return take_picture(img, t->width, t->height, t->first_row, t->rows, t->colour, t->alpha, t->out, t->stride,
                        t->channels, report);
}

int fz_de265_decode_tile(const uint8_t *hvcc, size_t hvcc_size, const uint8_t *data, size_t data_size,
                         int width, int height, int first_row, int rows, const fz_de265_colour *colour, int alpha,
                         uint8_t *out, size_t stride, int channels, int workers, fz_de265_report *report) {
    if (channels < 3 || (alpha && channels < 4) || first_row < 0 || rows < 1 || first_row > height - rows) {
        if (report) memset(report, 0, sizeof *report);
        return FZ_DE265_UNSUPPORTED;
    }
    struct picture_target t = {width, height, first_row, rows, alpha, channels, colour, out, stride};
    return fz_de265_decode_with(hvcc, hvcc_size, data, data_size, alpha, workers, take_into, &t, report);
}
