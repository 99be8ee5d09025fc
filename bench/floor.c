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
 * Exit 0 on success, 1 on a decode error, 2 on bad usage.
 */
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>  /* after stdio.h and stddef.h, which it needs */
#include <png.h>

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

static int usage(void) {
    fprintf(stderr,
            "usage: floor crop X Y W H FILE.jpg | floor full FILE.jpg | floor scale 2|4|8 FILE.jpg"
            " | floor pngrows Y H FILE.png\n");
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
    if (argc == 5 && strcmp(argv[1], "pngrows") == 0) return run_png(atol(argv[2]), atol(argv[3]), argv[4]);
    return usage();
}
