/* floor: the least work a decoder must do, as a whole process, for `make bench`.
 *
 * Compiled at bench time against the system's libjpeg (libjpeg-turbo) and libpng:
 *   cc -O2 bench/floor.c -o .cache/bench/floor $(pkg-config --cflags --libs libjpeg libpng)
 *
 * Modes (all decode to RGB, the same output colour space forcezoom asks for, and write
 * nothing but a one-line checksum of the decoded samples so no work can be optimised away):
 *   floor crop X Y W H FILE.jpg  only the rows and columns needed: jpeg_crop_scanline to the
 *                                column span (widened to whole iMCUs by libjpeg), then
 *                                jpeg_skip_scanlines over the rows above, read H rows, stop.
 *   floor full FILE.jpg          the whole image at full size.
 *   floor scale D FILE.jpg       the whole image at 1/D scale (DCT scaling, scale_denom = D:
 *                                2, 4 or 8), what a fit or thumbnail must decode at least.
 *   floor pngrows Y H FILE.png   libpng: read rows until the last needed row (Y+H-1), stop
 *                                (what a row-streaming PNG crop cannot avoid; non-interlaced).
 *   floor fit CW CH FILE.jpg OUT.png  the single-thread floor of `fit --orientation
 *                                landscape-left`: the smallest DCT scale (M/8) still at least the
 *                                fitted size, one bilinear resample straight into the canvas turned
 *                                90 degrees clockwise (no separate turn pass), black letterbox, PNG
 *                                encode with forcezoom's default settings (zlib 1, Sub filter,
 *                                Z_RLE). Writes OUT.png; prints its size and a checksum.
 *   floor pngisal Y H FILE.png   issue 38's PNG floor: no libpng; the chunks walked, IDAT inflated by
 *                                ISA-L's streaming isal_inflate (zlib wrapper) a row at a time and
 *                                unfiltered by forcezoom's own kernels (Sources/CFZPNG/fz_png_unfilter.c,
 *                                SSE2), with no CRC or Adler checks, no copies, 8-bit non-interlaced
 *                                only, until row Y+H-1. `floor pngisal 0 HEIGHT` is the whole decode:
 *                                what is left of forcezoom's time above it is its own overhead.
 *   floor de265 T PS.265 TILE.265...  issue 38's HEIC floor: libde265 alone decodes the tiles (Annex B,
 *                                each an independent picture; PS.265 holds the hvcC parameter sets)
 *                                on T threads, one decoder context each, tiles dealt round-robin;
 *                                no colour conversion. bench.py's heic_tiles() writes the files.
 * Exit 0 on success, 1 on a decode error, 2 on bad usage.
 */
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>  /* after stdio.h and stddef.h, which it needs */
#include <png.h>
#include <isa-l/igzip_lib.h>
#include <libde265/de265.h>
#include <pthread.h>
#include <stdint.h>

struct err_mgr {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
};

static void on_error(j_common_ptr cinfo) {
    struct err_mgr *e = (struct err_mgr *)cinfo->err;
    (*cinfo->err->output_message)(cinfo);
    longjmp(e->jump, 1);
}

static unsigned long sum_row(const unsigned char *row, size_t n, unsigned long acc) {
    for (size_t i = 0; i < n; i++) acc = acc * 31 + row[i];
    return acc;
}

/* mode: 0 crop, 1 full, 2 scaled by 1/denom */
static int run_jpeg(int mode, int denom, long x, long y, long w, long h, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    struct jpeg_decompress_struct cinfo;
    struct err_mgr err;
    JSAMPROW row = NULL;
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = on_error;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        fclose(f);
        free(row);
        return 1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_stdio_src(&cinfo, f);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.out_color_space = JCS_RGB;
    if (mode == 2) { cinfo.scale_num = 1; cinfo.scale_denom = (unsigned)denom; }
    jpeg_start_decompress(&cinfo);

    unsigned long acc = 0;
    if (mode == 0) {
        if (x < 0 || y < 0 || w <= 0 || h <= 0 || x + w > (long)cinfo.output_width ||
            y + h > (long)cinfo.output_height) {
            fprintf(stderr, "floor: region %ldx%ld+%ld+%ld is outside %ux%u\n", w, h, x, y,
                    cinfo.output_width, cinfo.output_height);
            longjmp(err.jump, 1);
        }
        JDIMENSION xoff = (JDIMENSION)x, cw = (JDIMENSION)w;
        jpeg_crop_scanline(&cinfo, &xoff, &cw);  /* widens to iMCU boundaries */
        if (y > 0) jpeg_skip_scanlines(&cinfo, (JDIMENSION)y);
        size_t stride = (size_t)cinfo.output_width * cinfo.output_components;
        row = malloc(stride);
        size_t skip = (size_t)(x - (long)xoff) * cinfo.output_components;
        for (long r = 0; r < h; r++) {
            jpeg_read_scanlines(&cinfo, &row, 1);
            acc = sum_row(row + skip, (size_t)w * cinfo.output_components, acc);
        }
        jpeg_abort_decompress(&cinfo);  /* stop: the rows below are never decoded */
        printf("%ux%ld of %ux%u %lx\n", cinfo.output_width, h, cinfo.image_width, cinfo.image_height, acc);
    } else {
        size_t stride = (size_t)cinfo.output_width * cinfo.output_components;
        row = malloc(stride);
        while (cinfo.output_scanline < cinfo.output_height) {
            jpeg_read_scanlines(&cinfo, &row, 1);
            acc = sum_row(row, stride, acc);
        }
        jpeg_finish_decompress(&cinfo);
        printf("%ux%u %lx\n", cinfo.output_width, cinfo.output_height, acc);
    }
    jpeg_destroy_decompress(&cinfo);
    free(row);
    fclose(f);
    return 0;
}

static int run_png(long y, long h, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    png_bytep row = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(row);
        fclose(f);
        return 1;
    }
    png_init_io(png, f);
    png_read_info(png, info);
    png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
    if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) {
        fprintf(stderr, "floor: %s is interlaced; pngrows reads non-interlaced PNGs\n", path);
        longjmp(png_jmpbuf(png), 1);
    }
    if (y < 0 || h <= 0 || y + h > (long)height) {
        fprintf(stderr, "floor: rows %ld..%ld are outside %u rows\n", y, y + h - 1, height);
        longjmp(png_jmpbuf(png), 1);
    }
    png_set_expand(png);
    png_set_strip_16(png);
    png_read_update_info(png, info);
    size_t stride = png_get_rowbytes(png, info);
    row = malloc(stride);
    unsigned long acc = 0;
    for (long r = 0; r < y + h; r++) {
        png_read_row(png, row, NULL);
        if (r >= y) acc = sum_row(row, stride, acc);
    }
    printf("rows %ld..%ld of %ux%u %lx\n", y, y + h - 1, width, height, acc);
    png_destroy_read_struct(&png, &info, NULL);  /* stop: the rows below are never inflated */
    free(row);
    fclose(f);
    return 0;
}

/* fit: decode at M/8, resample bilinearly into the turned canvas, encode. */
static int run_fit(long cw, long ch, const char *path, const char *out) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    struct jpeg_decompress_struct cinfo;
    struct err_mgr err;
    unsigned char *pixels = NULL, *row = NULL;
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = on_error;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        fclose(f);
        free(pixels);
        return 1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_stdio_src(&cinfo, f);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.out_color_space = JCS_RGB;
    /* The content box is the canvas turned: ch x cw (landscape). Fitted size: */
    double s = (double)ch / cinfo.image_width;
    if ((double)cw / cinfo.image_height < s) s = (double)cw / cinfo.image_height;
    long fw = (long)(cinfo.image_width * s + 0.5), fh = (long)(cinfo.image_height * s + 0.5);
    unsigned m = 8;
    while (m > 1 && (long)((cinfo.image_width * (m - 1) + 7) / 8) >= fw && (long)((cinfo.image_height * (m - 1) + 7) / 8) >= fh) m--;
    cinfo.scale_num = m;
    cinfo.scale_denom = 8;
    jpeg_start_decompress(&cinfo);
    long sw = cinfo.output_width, sh = cinfo.output_height;
    pixels = malloc((size_t)sw * sh * 3);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW r = pixels + (size_t)cinfo.output_scanline * sw * 3;
        jpeg_read_scanlines(&cinfo, &r, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    fclose(f);

    FILE *o = fopen(out, "wb");
    if (!o) { perror(out); free(pixels); return 1; }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(o);
        free(pixels);
        free(row);
        return 1;
    }
    png_init_io(png, o);
    png_set_IHDR(png, info, (png_uint_32)cw, (png_uint_32)ch, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 1);
    png_set_compression_strategy(png, 3 /* Z_RLE */);
    png_set_filter(png, 0, PNG_FILTER_SUB);
    png_write_info(png, info);
    /* Canvas (x, y) shows content (u, v) = (y - top, fh - 1 - x) after a clockwise quarter turn:
     * the content is fh rows tall in landscape, so it is fh canvas columns wide. */
    long left = (cw - fh) / 2, top = (ch - fw) / 2;
    double kx = (double)sw / fw, ky = (double)sh / fh;
    row = malloc((size_t)cw * 3);
    unsigned long acc = 0;
    for (long y = 0; y < ch; y++) {
        memset(row, 0, (size_t)cw * 3);
        long u = y - top;
        if (u >= 0 && u < fw) {
            double sx = (u + 0.5) * kx - 0.5;
            if (sx < 0) sx = 0;
            long x0 = (long)sx; if (x0 > sw - 2) x0 = sw - 2;
            double ax = sx - x0;
            for (long x = left; x < left + fh; x++) {
                long v = fh - 1 - (x - left);
                double sy = (v + 0.5) * ky - 0.5;
                if (sy < 0) sy = 0;
                long y0 = (long)sy; if (y0 > sh - 2) y0 = sh - 2;
                double ay = sy - y0;
                const unsigned char *p = pixels + ((size_t)y0 * sw + x0) * 3, *q = p + (size_t)sw * 3;
                unsigned char *d = row + (size_t)x * 3;
                for (int c = 0; c < 3; c++) {
                    double a = p[c] + (p[c + 3] - p[c]) * ax, b = q[c] + (q[c + 3] - q[c]) * ax;
                    d[c] = (unsigned char)(a + (b - a) * ay + 0.5);
                }
            }
        }
        acc = sum_row(row, (size_t)cw * 3, acc);
        png_write_row(png, row);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    fclose(o);
    free(row);
    free(pixels);
    printf("%ldx%ld (decoded %ldx%ld at %u/8) %lx\n", cw, ch, sw, sh, m, acc);
    return 0;
}

static int usage(void);

/* ---- issue 38: PNG through ISA-L, HEVC tiles through libde265 ---- */

static uint32_t be32(const unsigned char *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static unsigned char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return NULL; }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(len > 0 ? (size_t)len : 1);
    if (!b || fread(b, 1, (size_t)len, f) != (size_t)len) { fclose(f); free(b); return NULL; }
    fclose(f);
    *n = (size_t)len;
    return b;
}

/* forcezoom's unfilter kernels (bench.py compiles Sources/CFZPNG/fz_png_unfilter.c in). */
int fz_png_unfilter(uint8_t *row, const uint8_t *prev, size_t length, int bpp, int filter);

static int run_pngisal(long y, long h, const char *path) {
    size_t n;
    unsigned char *f = slurp(path, &n);
    if (!f) return 1;
    if (n < 33 || memcmp(f + 12, "IHDR", 4) != 0) { fprintf(stderr, "floor: %s: not a PNG\n", path); return 1; }
    uint32_t width = be32(f + 16), height = be32(f + 20);
    int depth = f[24], ctype = f[25], interlace = f[28];
    int channels = ctype == 0 ? 1 : ctype == 2 ? 3 : ctype == 4 ? 2 : ctype == 6 ? 4 : 0;
    if (depth != 8 || interlace || channels == 0) { fprintf(stderr, "floor: pngisal reads 8-bit non-interlaced gray/RGB(A)\n"); return 1; }
    if (y < 0 || h <= 0 || y + h > (long)height) { fprintf(stderr, "floor: rows outside the image\n"); return 1; }
    size_t bpp = (size_t)channels, stride = (size_t)width * bpp;
    unsigned char *rows = calloc(2, stride + 1);
    unsigned char *cur = rows, *prev = rows + stride + 1;
    struct inflate_state st;
    isal_inflate_init(&st);
    st.crc_flag = ISAL_ZLIB;
    size_t at = 8;
    long r = 0;
    unsigned long acc = 0;
    st.next_out = cur;
    st.avail_out = (uint32_t)(stride + 1);
    while (at + 12 <= n && r < y + h) {
        uint32_t len = be32(f + at);
        const unsigned char *type = f + at + 4;
        if (at + 12 + len > n) break;
        if (memcmp(type, "IDAT", 4) == 0) {
            st.next_in = f + at + 8;
            st.avail_in = len;
            /* Until a call leaves room in the row: then the chunk is used up (ISA-L keeps no
               output back while it has room) or the stream has ended. */
            while (r < y + h) {
                if (isal_inflate(&st) != ISAL_DECOMP_OK) { fprintf(stderr, "floor: inflate failed\n"); return 1; }
                if (st.avail_out != 0) break;
                fz_png_unfilter(cur + 1, prev + 1, stride, (int)bpp, cur[0]);
                if (r >= y) acc = sum_row(cur + 1, stride, acc);
                r++;
                unsigned char *t = cur; cur = prev; prev = t;
                st.next_out = cur;
                st.avail_out = (uint32_t)(stride + 1);
            }
        } else if (memcmp(type, "IEND", 4) == 0) break;
        at += 12 + len;
    }
    free(rows);
    free(f);
    if (r < y + h) { fprintf(stderr, "floor: %s ended at row %ld\n", path, r); return 1; }
    printf("rows %ld..%ld of %ux%u %lx\n", y, y + h - 1, width, height, acc);
    return 0;
}

struct de265_job {
    const unsigned char *ps; size_t ps_n;
    unsigned char **tiles; size_t *tile_n; int count, first, step;
    long pictures; unsigned long acc; int failed;
};

static void *de265_worker(void *arg) {
    struct de265_job *j = arg;
    de265_decoder_context *ctx = de265_new_decoder();
    de265_push_data(ctx, j->ps, (int)j->ps_n, 0, NULL);
    for (int k = j->first; k < j->count; k += j->step) {
        de265_push_data(ctx, j->tiles[k], (int)j->tile_n[k], 0, NULL);
        de265_push_end_of_frame(ctx);
        int more = 1;
        while (more) {
            de265_error e = de265_decode(ctx, &more);
            if (e != DE265_OK && e != DE265_ERROR_WAITING_FOR_INPUT_DATA) { j->failed = 1; break; }
            const struct de265_image *img;
            while ((img = de265_get_next_picture(ctx)) != NULL) {
                int s;
                const uint8_t *p = de265_get_image_plane(img, 0, &s);
                j->acc = j->acc * 31 + p[0];
                j->pictures++;
            }
            if (e == DE265_ERROR_WAITING_FOR_INPUT_DATA) break;
        }
    }
    de265_flush_data(ctx);
    int more = 1;
    while (more && de265_decode(ctx, &more) == DE265_OK) {
        const struct de265_image *img;
        while ((img = de265_get_next_picture(ctx)) != NULL) j->pictures++;
    }
    const struct de265_image *img;
    while ((img = de265_get_next_picture(ctx)) != NULL) j->pictures++;
    de265_free_decoder(ctx);
    return NULL;
}

static int run_de265(int threads, const char *ps_path, int count, char **paths) {
    if (threads < 1 || threads > 64 || count < 1) return usage();
    size_t ps_n;
    unsigned char *ps = slurp(ps_path, &ps_n);
    unsigned char **tiles = calloc((size_t)count, sizeof *tiles);
    size_t *tile_n = calloc((size_t)count, sizeof *tile_n);
    if (!ps || !tiles || !tile_n) return 1;
    for (int k = 0; k < count; k++)
        if (!(tiles[k] = slurp(paths[k], &tile_n[k]))) return 1;
    struct de265_job jobs[64];
    pthread_t ids[64];
    for (int t = 0; t < threads; t++) {
        jobs[t] = (struct de265_job){ps, ps_n, tiles, tile_n, count, t, threads, 0, 0, 0};
        pthread_create(&ids[t], NULL, de265_worker, &jobs[t]);
    }
    long pictures = 0;
    int failed = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(ids[t], NULL);
        pictures += jobs[t].pictures;
        failed |= jobs[t].failed;
    }
    if (failed || pictures != count) { fprintf(stderr, "floor: %ld of %d tiles decoded\n", pictures, count); return 1; }
    printf("%d tiles on %d threads\n", count, threads);
    return 0;
}

static int usage(void) {
    fprintf(stderr,
            "usage: floor crop X Y W H FILE.jpg | floor full FILE.jpg | floor scale 2|4|8 FILE.jpg"
            " | floor pngrows Y H FILE.png | floor fit CW CH FILE.jpg OUT.png"
            " | floor pngisal Y H FILE.png | floor de265 T PS.265 TILE.265...\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc == 7 && strcmp(argv[1], "crop") == 0)
        return run_jpeg(0, 1, atol(argv[2]), atol(argv[3]), atol(argv[4]), atol(argv[5]), argv[6]);
    if (argc == 3 && strcmp(argv[1], "full") == 0) return run_jpeg(1, 1, 0, 0, 0, 0, argv[2]);
    if (argc == 4 && strcmp(argv[1], "scale") == 0) {
        int d = atoi(argv[2]);
        if (d != 2 && d != 4 && d != 8) return usage();
        return run_jpeg(2, d, 0, 0, 0, 0, argv[3]);
    }
    if (argc == 6 && strcmp(argv[1], "fit") == 0) return run_fit(atol(argv[2]), atol(argv[3]), argv[4], argv[5]);
    if (argc == 5 && strcmp(argv[1], "pngrows") == 0) return run_png(atol(argv[2]), atol(argv[3]), argv[4]);
    if (argc == 5 && strcmp(argv[1], "pngisal") == 0) return run_pngisal(atol(argv[2]), atol(argv[3]), argv[4]);
    if (argc >= 5 && strcmp(argv[1], "de265") == 0) return run_de265(atoi(argv[2]), argv[3], argc - 4, argv + 4);
    return usage();
}
