// A tile reduced to the sums of whole blocks before it is converted to RGB (issue 38): a
// thumbnail's pipeline averages blocks of fx x fy pixels before its filter (BoxShrink), and
// libheif's conversion is affine before its rounding and clipping (R = Y' + r_cr V' and so
// on, Y', U', V' affine in Y, Cb, Cr), so the sum of a block's R before rounding is the
// conversion of its sums of Y, Cb and Cr. Summing three planes costs a few additions a
// pixel where converting costs a dozen float operations and a store, and only the sums of
// a block (a few dozen a tile row) are converted. What differs from converting first: each
// pixel's rounding to an integer and its clipping to 0...255 before the average (a block
// whose pixels clip averages what they would be unclipped, then clips).

#include "fz_de265.h"
#include "fz_de265_internal.h"

#include <stdlib.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF

static int first_block(int origin, int from, int factor) { return (origin + from) / factor; }

void fz_blocks_extent(const fz_de265_blocks *b, int *columns, int *rows) {
    *columns = first_block(b->origin_x, b->x1 - 1, b->fx) - first_block(b->origin_x, b->x0, b->fx) + 1;
    *rows = first_block(b->origin_y, b->y1 - 1, b->fy) - first_block(b->origin_y, b->y0, b->fy) + 1;
}

void fz_rgb_block_sums(const uint8_t *pixels, size_t stride, int channels, const fz_de265_blocks *b, float *sums) {
    int columns, rows;
    fz_blocks_extent(b, &columns, &rows);
    memset(sums, 0, sizeof(float) * 3 * (size_t)columns * (size_t)rows);
    int bx0 = first_block(b->origin_x, b->x0, b->fx), by0 = first_block(b->origin_y, b->y0, b->fy);
    for (int j = b->y0; j < b->y1; j++) {
        const uint8_t *p = pixels + (size_t)j * stride;
        float *row = sums + (size_t)((b->origin_y + j) / b->fy - by0) * columns * 3;
        int x = b->x0;
        for (int c = 0; c < columns; c++) {
            int end = (bx0 + c + 1) * b->fx - b->origin_x;
            if (end > b->x1) end = b->x1;
            uint32_t r = 0, g = 0, bl = 0;
            for (; x < end; x++) {
                r += p[x * channels];
                g += p[x * channels + 1];
                bl += p[x * channels + 2];
            }
            row[3 * c] += r;
            row[3 * c + 1] += g;
            row[3 * c + 2] += bl;
        }
    }
}

/* The arguments of fz_de265_decode_tile_blocks, for take_blocks. */
struct blocks_target {
    int width, height;
    const fz_de265_colour *colour;
    const fz_de265_blocks *blocks;
    float *sums;
};

/* Sums of Y, Cb and Cr (each pixel's chroma sample as the conversion takes it: nearest,
   (x >> shiftH, y >> shiftV)) of every block, a row of blocks at a time, each row of blocks
   converted to sums of R, G and B as it is finished. The rows of a row of blocks are first
   added column by column (`cols`: Y, then Cb and Cr at chroma width; 16 bits hold 64 rows of
   255), loops the compiler vectorises, so the per-block loops run once a row of blocks. */
static void ycbcr_sums(const uint8_t *y, int ys, const uint8_t *cb, int cbs, const uint8_t *cr, int crs, int shiftH,
                       int shiftV, int full, const float k[4], const fz_de265_blocks *b, uint16_t *cols,
                       float *sums) {
    int columns, rows;
    fz_blocks_extent(b, &columns, &rows);
    int bx0 = first_block(b->origin_x, b->x0, b->fx), by0 = first_block(b->origin_y, b->y0, b->fy);
    int cx0 = b->x0 >> shiftH, cx1 = ((b->x1 - 1) >> shiftH) + 1;
    uint16_t *restrict cy = cols, *restrict ccb = cols + b->x1, *restrict ccr = ccb + cx1;
    memset(cols, 0, sizeof(uint16_t) * (size_t)(b->x1 + 2 * cx1));
    int block_rows = 0;
    for (int j = b->y0; j < b->y1; j++) {
        const uint8_t *restrict yr = y + (size_t)j * ys;
        const uint8_t *restrict cbr = cb + (size_t)(j >> shiftV) * cbs;
        const uint8_t *restrict crr = cr + (size_t)(j >> shiftV) * crs;
        for (int x = b->x0; x < b->x1; x++) cy[x] += yr[x];
        for (int x = cx0; x < cx1; x++) {
            ccb[x] += cbr[x];
            ccr[x] += crr[x];
        }
        block_rows++;
        if (j + 1 < b->y1 && (b->origin_y + j + 1) % b->fy != 0) continue;
        // A row of blocks done: each block's sums, through the conversion's affine part.
        int by = (b->origin_y + j) / b->fy - by0;
        float *row = sums + (size_t)by * columns * 3;
        int x = b->x0;
        for (int c = 0; c < columns; c++) {
            int end = (bx0 + c + 1) * b->fx - b->origin_x;
            if (end > b->x1) end = b->x1;
            double n = (double)(end - x) * block_rows;
            uint32_t sy = 0, su = 0, sv = 0;
            for (; x < end; x++) {
                sy += cy[x];
                su += ccb[x >> shiftH];
                sv += ccr[x >> shiftH];
            }
            double yv = sy, u = su - 128.0 * n, v = sv - 128.0 * n;
            if (!full) {
                yv = (yv - 16.0 * n) * (double)1.1689f;
                u *= (double)1.1429f;
                v *= (double)1.1429f;
            }
            row[3 * c] = (float)(yv + (double)k[0] * v);
            row[3 * c + 1] = (float)(yv + (double)k[1] * u + (double)k[2] * v);
            row[3 * c + 2] = (float)(yv + (double)k[3] * u);
        }
        memset(cols, 0, sizeof(uint16_t) * (size_t)(b->x1 + 2 * cx1));
        block_rows = 0;
    }
}

static int take_blocks(const struct de265_image *img, void *context, fz_de265_report *report) {
    const struct blocks_target *t = context;
    int w = de265_get_image_width(img, 0), h = de265_get_image_height(img, 0);
    int chroma = (int)de265_get_chroma_format(img);
    if (report) {
        report->width = w;
        report->height = h;
        report->chroma = chroma;
        report->bits = de265_get_bits_per_pixel(img, 0);
    }
    if (w != t->width || h != t->height || chroma == de265_chroma_mono || de265_get_bits_per_pixel(img, 0) != 8 ||
        de265_get_bits_per_pixel(img, 1) != 8 || de265_get_bits_per_pixel(img, 2) != 8) {
        return FZ_DE265_UNSUPPORTED;
    }
    int ys, cbs, crs;
    const uint8_t *y = de265_get_image_plane(img, 0, &ys);
    const uint8_t *cb = de265_get_image_plane(img, 1, &cbs);
    const uint8_t *cr = de265_get_image_plane(img, 2, &crs);
    if (!y || !cb || !cr) return FZ_DE265_FAILED;
    int matrix, full;
    fz_de265_picture_matrix(img, t->colour, &matrix, &full);
    if (matrix == 12 || matrix == 13) return FZ_DE265_UNSUPPORTED;
    if (matrix == 0 || matrix == 8) {
        // Integer conversions, not the float matrix: converted, then summed.
        uint8_t *rgb = malloc((size_t)w * (size_t)h * 3);
        if (!rgb) return FZ_DE265_FAILED;
        int r = fz_de265_convert(y, ys, cb, cbs, cr, crs, w, h, chroma, matrix, full, rgb, (size_t)w * 3, 3);
        if (r == FZ_DE265_OK) fz_rgb_block_sums(rgb, (size_t)w * 3, 3, t->blocks, t->sums);
        free(rgb);
        return r;
    }
    int shiftH = chroma == 3 ? 0 : 1;
    uint16_t *cols = malloc(sizeof(uint16_t) * ((size_t)t->blocks->x1 + 2 * ((size_t)((t->blocks->x1 - 1) >> shiftH) + 1)));
    if (!cols) return FZ_DE265_FAILED;
    float k[4];
    fz_de265_coefficients(matrix, k);
    ycbcr_sums(y, ys, cb, cbs, cr, crs, shiftH, chroma == 1 ? 1 : 0, full, k, t->blocks, cols, t->sums);
    free(cols);
    return FZ_DE265_OK;
}

int fz_de265_decode_tile_blocks(const uint8_t *hvcc, size_t hvcc_size, const uint8_t *data, size_t data_size,
                                int width, int height, const fz_de265_colour *colour, const fz_de265_blocks *blocks,
                                float *sums, fz_de265_report *report) {
    const fz_de265_blocks *b = blocks;
    if (b->fx < 1 || b->fy < 1 || b->fx > 64 || b->fy > 64 || b->x0 < 0 || b->y0 < 0 || b->x0 >= b->x1 ||
        b->y0 >= b->y1 || b->x1 > width || b->y1 > height || b->origin_x + b->x0 < 0 || b->origin_y + b->y0 < 0) {
        if (report) memset(report, 0, sizeof *report);
        return FZ_DE265_UNSUPPORTED;
    }
    struct blocks_target t = {width, height, colour, blocks, sums};
    return fz_de265_decode_with(hvcc, hvcc_size, data, data_size, 0, 0, take_blocks, &t, report);
}
