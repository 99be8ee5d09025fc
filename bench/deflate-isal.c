/* deflate-isal: forcezoom's PNG deflate (fz_rle_deflate, Z_RLE-style, the writer's default at
 * --compression 1-6) against ISA-L's isal_deflate at levels 1-3 (zlib wrapper) and zlib's own
 * level 1 and Z_RLE, on the PNG-filtered rows of the given PNGs (issue 38, item 2).
 *
 *   cc -O2 -Isources... : see bench/notes.md, or
 *   cc -O2 bench/deflate-isal.c Sources/CFZDeflate/fz_rle_deflate.c Sources/CFZDeflate/fz_deflate.c \
 *      -ISources/CFZDeflate/include -ISources/CFZCommon/include -o .cache/bench/deflate-isal \
 *      $(pkg-config --cflags --libs libpng libisal zlib)
 *   .cache/bench/deflate-isal FILE.png...
 *
 * Each file is decoded by libpng to 8-bit RGB(A), filtered as the writer filters (Sub, its
 * default; Paeth for --compression 4-6), then compressed whole by each encoder: output size
 * and the best of 5 timings. Prints one table row per file, encoder and filter.
 */
#include <isa-l/igzip_lib.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "fz_deflate.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static size_t isal(const uint8_t *in, size_t n, uint8_t *out, size_t cap, int level) {
    static const uint32_t sizes[4] = {ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT,
                                      ISAL_DEF_LVL3_DEFAULT};
    struct isal_zstream s;
    isal_deflate_init(&s);
    uint8_t *buf = malloc(sizes[level]);
    s.level = (uint32_t)level;
    s.level_buf = buf;
    s.level_buf_size = sizes[level];
    s.gzip_flag = IGZIP_ZLIB;
    s.end_of_stream = 1;
    s.flush = NO_FLUSH;
    s.next_in = (uint8_t *)in;
    s.avail_in = (uint32_t)n;
    s.next_out = out;
    s.avail_out = (uint32_t)cap;
    int ret = isal_deflate(&s);
    free(buf);
    return ret == COMP_OK && s.internal_state.state == ZSTATE_END ? s.total_out : 0;
}

static size_t zlib(const uint8_t *in, size_t n, uint8_t *out, size_t cap, int level, int strategy) {
    z_stream z;
    memset(&z, 0, sizeof z);
    deflateInit2(&z, level, Z_DEFLATED, 15, 8, strategy);
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int ret = deflate(&z, Z_FINISH);
    size_t got = z.total_out;
    deflateEnd(&z);
    return ret == Z_STREAM_END ? got : 0;
}

static size_t rle(const uint8_t *in, size_t n, uint8_t *out, size_t cap) {
    size_t got = 0;
    (void)cap;
    return fz_rle_deflate(in, n, -1, 1, out, &got) == FZ_OK ? got + 6 : 0;  // + zlib header and Adler-32
}

int main(int argc, char **argv) {
    printf("%-14s %-7s %-16s %12s %9s %9s\n", "file", "filter", "encoder", "bytes", "ms", "MB/s");
    for (int f = 1; f < argc; f++) {
        png_image image;
        memset(&image, 0, sizeof image);
        image.version = PNG_IMAGE_VERSION;
        if (!png_image_begin_read_from_file(&image, argv[f])) return 1;
        image.format = (image.format & PNG_FORMAT_FLAG_ALPHA) ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
        size_t stride = PNG_IMAGE_ROW_STRIDE(image), bpp = PNG_IMAGE_PIXEL_SIZE(image.format);
        uint8_t *pixels = malloc(PNG_IMAGE_SIZE(image));
        if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) return 1;
        size_t n = (stride + 1) * image.height, cap = n + n / 8 + 1024;
        uint8_t *filtered = malloc(n), *out = malloc(cap), *scratch = calloc(6, stride);
        const char *name = strrchr(argv[f], '/') ? strrchr(argv[f], '/') + 1 : argv[f];
        for (int filter = 1; filter <= 4; filter += 3) {
            fz_png_filter_rows(pixels, stride, NULL, image.height, stride, (int)bpp, filter, filtered, scratch);
            for (int e = 0; e < 6; e++) {
                static const char *names[6] = {"fz_rle_deflate", "isal level 1", "isal level 2", "isal level 3",
                                               "zlib level 1", "zlib Z_RLE 1"};
                double best = 1e9;
                size_t got = 0;
                for (int it = 0; it < 5; it++) {
                    double t0 = now();
                    got = e == 0 ? rle(filtered, n, out, cap)
                          : e <= 3 ? isal(filtered, n, out, cap, e)
                          : zlib(filtered, n, out, cap, 1, e == 4 ? Z_DEFAULT_STRATEGY : Z_RLE);
                    double t = now() - t0;
                    if (t < best) best = t;
                }
                printf("%-14.14s %-7s %-16s %12zu %9.1f %9.0f\n", name, filter == 1 ? "sub" : "paeth", names[e], got,
                       best * 1e3, n / best / 1e6);
            }
        }
        free(pixels);
        free(filtered);
        free(out);
        free(scratch);
    }
    return 0;
}
