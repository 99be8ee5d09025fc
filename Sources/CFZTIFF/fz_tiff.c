// Over 300 lines on purpose: every libtiff call (open through our stream, directories,
// strips and tiles, the RGBA fallback) and the sample conversion of the bands they fill
// live in this one file, behind the handlers that keep libtiff's messages off stderr.
#include "fz_tiff.h"
#include "fz_color.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

#include "fz_tiff_lib.h"

struct fz_tiff {
    TIFF *tif;
    FILE *stream;
    char error[FZ_MESSAGE_MAX];  // the last error libtiff reported
    int errors;
    char warning[FZ_MESSAGE_MAX];  // the last warning (an IFD loop is one)
    int warnings;
    fz_tiff_info info;
    fz_tiff_plan plan;
    fz_color_transform *cmyk;  // CMYK to sRGB through a profile, or NULL: the formula
    uint16_t *red, *green, *blue;
    // One band: a strip (all planes), or one row of the tiles the columns touch.
    uint8_t *band;
    int64_t band_index;  // decoded band, -1: none
    uint32_t band_rows, planes, tx0, tx1;
    tmsize_t unit;  // bytes of one strip or tile (one plane)
    uint32_t row;   // next row delivered
    uint16_t *samples;  // one row of the window, one sample per element
    uint8_t *cmyk_row;
    uint32_t *rgba;  // FZ_TIFF_RGBA_IMAGE: the whole image
};

// Handlers: one line into `message`, nothing printed; returning 1 keeps libtiff's global
// handlers (stderr) out.
static void fz_tiff_format(char *out, const char *module, const char *fmt, va_list ap) {
    char text[FZ_MESSAGE_MAX];
    vsnprintf(text, sizeof text, fmt, ap);
    snprintf(out, FZ_MESSAGE_MAX, "%s%s%s", module ? module : "", module ? ": " : "", text);
    for (char *p = out; *p; p++)
        if (*p == '\n' || *p == '\r') *p = ' ';
}

static int fz_tiff_on_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif;
    fz_tiff *t = user;
    fz_tiff_format(t->error, module, fmt, ap);
    t->errors++;
    return 1;
}

static int fz_tiff_on_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif;
    fz_tiff *t = user;  // kept, not printed: unknown tags and the like are not the user's business
    fz_tiff_format(t->warning, module, fmt, ap);
    t->warnings++;
    return 1;
}

static pthread_once_t fz_tiff_quiet_once = PTHREAD_ONCE_INIT;
static void fz_tiff_quiet(void) {
    // Messages raised before a TIFF* exists go to the global handlers: none.
    fz_TIFFSetErrorHandler(NULL);
    fz_TIFFSetWarningHandler(NULL);
}

static tmsize_t fz_tiff_readproc(thandle_t h, void *buf, tmsize_t size) {
    return (tmsize_t)fread(buf, 1, (size_t)size, (FILE *)h);
}
static tmsize_t fz_tiff_writeproc(thandle_t h, void *buf, tmsize_t size) {
    (void)h, (void)buf, (void)size;
    return 0;
}
static toff_t fz_tiff_seekproc(thandle_t h, toff_t off, int whence) {
    if (off > (toff_t)INT64_MAX) return (toff_t)-1;
    if (fseeko((FILE *)h, (off_t)off, whence) != 0) return (toff_t)-1;
    return (toff_t)ftello((FILE *)h);
}
static int fz_tiff_closeproc(thandle_t h) {
    (void)h;
    return 0;
}
static toff_t fz_tiff_sizeproc(thandle_t h) {
    FILE *f = h;
    off_t here = ftello(f);
    if (fseeko(f, 0, SEEK_END) != 0) return 0;
    off_t end = ftello(f);
    fseeko(f, here, SEEK_SET);
    return end < 0 ? 0 : (toff_t)end;
}
static int fz_tiff_mapproc(thandle_t h, void **base, toff_t *size) {
    (void)h, (void)base, (void)size;
    return 0;
}
static void fz_tiff_unmapproc(thandle_t h, void *base, toff_t size) { (void)h, (void)base, (void)size; }

static void fz_tiff_copy_error(fz_tiff *t, char *message, const char *fallback) {
    snprintf(message, FZ_MESSAGE_MAX, "%s", t->errors ? t->error : fallback);
}

int fz_tiff_open(FILE *stream, int64_t max_alloc, fz_tiff **out, char *message) {
    pthread_once(&fz_tiff_quiet_once, fz_tiff_quiet);
    *out = NULL;
    message[0] = '\0';
    fz_tiff *t = calloc(1, sizeof *t);
    TIFFOpenOptions *opts = fz_TIFFOpenOptionsAlloc();
    if (t == NULL || opts == NULL) {
        free(t);
        if (opts) fz_TIFFOpenOptionsFree(opts);
        snprintf(message, FZ_MESSAGE_MAX, "out of memory");
        return FZ_ERROR;
    }
    t->stream = stream;
    t->band_index = -1;
    fz_TIFFOpenOptionsSetErrorHandlerExtR(opts, fz_tiff_on_error, t);
    fz_TIFFOpenOptionsSetWarningHandlerExtR(opts, fz_tiff_on_warning, t);
    if (max_alloc > 0) fz_TIFFOpenOptionsSetMaxSingleMemAlloc(opts, (tmsize_t)max_alloc);
    t->tif = fz_TIFFClientOpenExt("tiff", "r", stream, fz_tiff_readproc, fz_tiff_writeproc, fz_tiff_seekproc,
                               fz_tiff_closeproc, fz_tiff_sizeproc, fz_tiff_mapproc, fz_tiff_unmapproc, opts);
    fz_TIFFOpenOptionsFree(opts);
    if (t->tif == NULL) {
        fz_tiff_copy_error(t, message, "not a TIFF libtiff can open");
        free(t);
        return FZ_ERROR;
    }
    *out = t;
    return FZ_OK;
}

static void fz_tiff_release_band(fz_tiff *t) {
    free(t->band);
    free(t->samples);
    free(t->cmyk_row);
    free(t->rgba);
    t->band = NULL;
    t->samples = NULL;
    t->cmyk_row = NULL;
    t->rgba = NULL;
    t->band_index = -1;
}

void fz_tiff_close(fz_tiff *t) {
    if (t == NULL) return;
    fz_tiff_release_band(t);
    fz_color_free(t->cmyk);
    if (t->tif) fz_TIFFClose(t->tif);
    free(t);
}


// The current directory's facts (and its colormap, kept for the palette conversion).
static void fz_tiff_read_info(fz_tiff *t, fz_tiff_info *info) {
    TIFF *tif = t->tif;
    fz_tiff_info i;
    memset(&i, 0, sizeof i);
    fz_TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &i.width);
    fz_TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &i.height);
    fz_TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &i.bits);
    fz_TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &i.spp);
    if (!fz_TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &i.photometric))
        i.photometric = i.spp >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
    fz_TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &i.planar);
    fz_TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &i.compression);
    fz_TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &i.sample_format);
    if (!fz_TIFFGetField(tif, TIFFTAG_ORIENTATION, &i.orientation)) i.orientation = 1;
    uint16_t *types = NULL;
    if (fz_TIFFGetField(tif, TIFFTAG_EXTRASAMPLES, &i.extra_count, &types) && i.extra_count > 0 && types)
        i.extra_type = types[0];
    fz_TIFFGetFieldDefaulted(tif, TIFFTAG_INKSET, &i.inkset);
    fz_TIFFGetField(tif, TIFFTAG_SUBFILETYPE, &i.subfile_type);
    i.tiled = fz_TIFFIsTiled(tif);
    if (i.tiled) {
        fz_TIFFGetField(tif, TIFFTAG_TILEWIDTH, &i.tile_width);
        fz_TIFFGetField(tif, TIFFTAG_TILELENGTH, &i.tile_height);
    } else {
        fz_TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &i.rows_per_strip);
    }
    t->red = t->green = t->blue = NULL;
    i.has_colormap = fz_TIFFGetField(tif, TIFFTAG_COLORMAP, &t->red, &t->green, &t->blue) ? 1 : 0;
    uint16_t n = 0;
    uint64_t *offsets = NULL;
    if (fz_TIFFGetField(tif, TIFFTAG_SUBIFD, &n, &offsets)) i.subifd_count = n;
    t->info = i;
    *info = i;
}

int fz_tiff_select(fz_tiff *t, int index, uint64_t subifd_offset, fz_tiff_info *info, char *message) {
    message[0] = '\0';
    fz_tiff_release_band(t);
    TIFF *tif = t->tif;
    int ok = subifd_offset ? fz_TIFFSetSubDirectory(tif, subifd_offset) : fz_TIFFSetDirectory(tif, (tdir_t)index);
    if (!ok) {
        fz_tiff_copy_error(t, message, "the directory cannot be read");
        return FZ_ERROR;
    }
    fz_tiff_read_info(t, info);
    return FZ_OK;
}

int fz_tiff_scan(fz_tiff *t, fz_tiff_info *infos, int limit, char *message) {
    message[0] = '\0';
    fz_tiff_release_band(t);
    int before = t->errors;
    if (!fz_TIFFSetDirectory(t->tif, 0)) {
        fz_tiff_copy_error(t, message, "the first directory cannot be read");
        return -1;
    }
    fz_tiff_read_info(t, &infos[0]);
    int count = 1;
    while (count < limit) {
        int warnings = t->warnings;
        if (!fz_TIFFReadDirectory(t->tif)) {
            // A loop (libtiff warns and stops there) is the file lying; a later directory
            // that does not read is passed over (the pages before it are still there, as
            // other readers show them).
            if (t->warnings > warnings && strstr(t->warning, "IFD loop") != NULL) {
                snprintf(message, FZ_MESSAGE_MAX, "%s", t->warning);
                return -1;
            }
            break;
        }
        fz_tiff_read_info(t, &infos[count]);
        count++;
    }
    t->errors = before;
    return count;
}

int fz_tiff_subifds(fz_tiff *t, uint64_t *offsets, int max) {
    uint16_t n = 0;
    uint64_t *got = NULL;
    if (!fz_TIFFGetField(t->tif, TIFFTAG_SUBIFD, &n, &got) || got == NULL) return 0;
    int count = n < max ? n : max;
    memcpy(offsets, got, (size_t)count * sizeof *offsets);
    return count;
}

const uint8_t *fz_tiff_icc(fz_tiff *t, uint32_t *length) {
    void *data = NULL;
    *length = 0;
    if (!fz_TIFFGetField(t->tif, TIFFTAG_ICCPROFILE, length, &data)) return NULL;
    return data;
}

const uint8_t *fz_tiff_xmp(fz_tiff *t, uint32_t *length) {
    void *data = NULL;
    *length = 0;
    if (!fz_TIFFGetField(t->tif, TIFFTAG_XMLPACKET, length, &data)) return NULL;
    return data;
}

int fz_tiff_rgba_ok(fz_tiff *t, char *message) {
    char emsg[1024] = "";
    if (fz_TIFFRGBAImageOK(t->tif, emsg)) return 1;
    snprintf(message, FZ_MESSAGE_MAX, "%s", emsg);
    return 0;
}

void fz_tiff_jpeg_to_rgb(fz_tiff *t) { fz_TIFFSetField(t->tif, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB); }

// CMYK samples through `icc` evaluated exactly (fz_color_cmyk_to_srgb_exact_create), not
// through lcms2's resampled grid as CMYK JPEGs are: a CMYK TIFF is a print master, whose colours
// should be the profile's (ImageMagick's, within a level: issue 51), and it is read a window or
// a strip at a time; a CMYK JPEG is a photo read whole, where the grid's 4x speed counts and
// Pillow reads it the same way.
int fz_tiff_use_cmyk_profile(fz_tiff *t, const uint8_t *icc, size_t length, int intent, int bpc, char *message) {
    fz_color_transform *made = NULL;
    if (fz_color_cmyk_to_srgb_exact_create(icc, length, intent, bpc, &made, message) != FZ_OK) return FZ_ERROR;
    fz_color_free(t->cmyk);
    t->cmyk = made;
    return FZ_OK;
}

// The band geometry of the current directory for `plan`.
static void fz_tiff_geometry(fz_tiff *t, const fz_tiff_plan *plan) {
    const fz_tiff_info *i = &t->info;
    t->planes = i->planar == PLANARCONFIG_SEPARATE ? i->spp : 1;
    if (i->tiled) {
        t->unit = fz_TIFFTileSize(t->tif);
        t->band_rows = i->tile_height;
        t->tx0 = plan->x0 / i->tile_width;
        t->tx1 = (plan->x1 + i->tile_width - 1) / i->tile_width;
    } else {
        t->unit = fz_TIFFStripSize(t->tif);
        uint32_t rps = i->rows_per_strip;
        t->band_rows = rps == 0 || rps > i->height ? i->height : rps;
        t->tx0 = 0;
        t->tx1 = 1;
    }
}

int64_t fz_tiff_memory_needed(fz_tiff *t, const fz_tiff_plan *plan) {
    const fz_tiff_info *i = &t->info;
    if (plan->mode == FZ_TIFF_RGBA_IMAGE) return (int64_t)i->width * i->height * 4;
    fz_tiff_geometry(t, plan);
    if (t->unit <= 0) return INT64_MAX;
    int64_t band = (int64_t)t->unit * t->planes * (t->tx1 - t->tx0);
    return band + (int64_t)(plan->x1 - plan->x0) * (i->spp * 2 + 4);
}

int fz_tiff_start(fz_tiff *t, const fz_tiff_plan *plan, char *message) {
    message[0] = '\0';
    fz_tiff_release_band(t);
    t->plan = *plan;
    t->row = 0;
    const fz_tiff_info *i = &t->info;
    if (plan->mode == FZ_TIFF_RGBA_IMAGE) {
        TIFFRGBAImage img;
        char emsg[1024] = "";
        if (!fz_TIFFRGBAImageBegin(&img, t->tif, 0, emsg)) {
            snprintf(message, FZ_MESSAGE_MAX, "%s", emsg);
            return FZ_ERROR;
        }
        // The stored order: forcezoom applies the orientation itself, as EXIF's.
        img.req_orientation = img.orientation;
        t->rgba = malloc((size_t)i->width * i->height * 4);
        int ok = t->rgba != NULL && fz_TIFFRGBAImageGet(&img, t->rgba, i->width, i->height);
        fz_TIFFRGBAImageEnd(&img);
        if (!ok) {
            fz_tiff_copy_error(t, message, t->rgba ? "the image does not decode" : "out of memory");
            return FZ_ERROR;
        }
        return FZ_OK;
    }
    fz_tiff_geometry(t, plan);
    size_t band = (size_t)t->unit * t->planes * (t->tx1 - t->tx0);
    t->band = malloc(band);
    t->samples = malloc((size_t)(plan->x1 - plan->x0) * i->spp * sizeof(uint16_t));
    t->cmyk_row = malloc((size_t)(plan->x1 - plan->x0) * 4);
    if (t->band == NULL || t->samples == NULL || t->cmyk_row == NULL) {
        fz_tiff_release_band(t);
        snprintf(message, FZ_MESSAGE_MAX, "out of memory for a %zu-byte band", band);
        return FZ_ERROR;
    }
    return FZ_OK;
}

void fz_tiff_skip(fz_tiff *t, uint32_t rows) {
    uint32_t left = t->info.height - t->row;
    t->row += rows < left ? rows : left;
}

// Decodes band `b` (strips or tiles of every plane); FZ_ERROR on the first that fails.
static int fz_tiff_decode_band(fz_tiff *t, uint32_t b) {
    const fz_tiff_info *i = &t->info;
    uint32_t across = t->tx1 - t->tx0;
    for (uint32_t p = 0; p < t->planes; p++) {
        for (uint32_t tx = t->tx0; tx < t->tx1; tx++) {
            uint8_t *dst = t->band + ((size_t)p * across + (tx - t->tx0)) * (size_t)t->unit;
            tmsize_t got;
            if (i->tiled) {
                uint32_t tile = fz_TIFFComputeTile(t->tif, tx * i->tile_width, b * i->tile_height, 0, (uint16_t)p);
                got = fz_TIFFReadEncodedTile(t->tif, tile, dst, t->unit);
            } else {
                uint32_t strip = fz_TIFFComputeStrip(t->tif, b * t->band_rows, (uint16_t)p);
                got = fz_TIFFReadEncodedStrip(t->tif, strip, dst, t->unit);
            }
            if (got < 0) return FZ_ERROR;
        }
    }
    return FZ_OK;
}

// `count` samples from `src`, starting at sample `first`, every `stride`-th element of `dst`.
static void fz_tiff_unpack(const uint8_t *src, uint32_t first, uint32_t count, int bits, uint16_t *dst, int stride) {
    switch (bits) {
    case 8:
        for (uint32_t k = 0; k < count; k++) dst[(size_t)k * stride] = src[first + k];
        return;
    case 16:
        for (uint32_t k = 0; k < count; k++) {
            uint16_t v;
            memcpy(&v, src + ((size_t)first + k) * 2, 2);  // libtiff delivers host order
            dst[(size_t)k * stride] = v;
        }
        return;
    default: {  // 1, 2 or 4 bits, most significant first (libtiff applied FillOrder)
        unsigned mask = (1u << bits) - 1;
        for (uint32_t k = 0; k < count; k++) {
            size_t bit = ((size_t)first + k) * bits;
            dst[(size_t)k * stride] = (uint16_t)((src[bit >> 3] >> (8 - bits - (bit & 7))) & mask);
        }
    }
    }
}

// The window's samples of `row` (inside the decoded band) into t->samples.
static void fz_tiff_gather(fz_tiff *t, uint32_t row) {
    const fz_tiff_info *i = &t->info;
    uint32_t x0 = t->plan.x0, x1 = t->plan.x1, across = t->tx1 - t->tx0;
    uint32_t r = row - (row / t->band_rows) * t->band_rows;
    int spp = i->spp, contig = t->planes == 1;
    int per = contig ? spp : 1;  // samples a pixel in one plane
    uint32_t unit_width = i->tiled ? i->tile_width : i->width;
    size_t row_bytes = ((size_t)unit_width * per * i->bits + 7) / 8;
    for (uint32_t p = 0; p < t->planes; p++) {
        for (uint32_t tx = t->tx0; tx < t->tx1; tx++) {
            uint32_t left = tx * unit_width, from = x0 > left ? x0 : left;
            uint32_t to = left + unit_width < x1 ? left + unit_width : x1;
            if (from >= to) continue;
            const uint8_t *src = t->band + ((size_t)p * across + (tx - t->tx0)) * (size_t)t->unit + r * row_bytes;
            uint16_t *dst = t->samples + (size_t)(from - x0) * spp + p;
            fz_tiff_unpack(src, (from - left) * per, (to - from) * per, i->bits, dst, contig ? 1 : spp);
        }
    }
}

static inline uint16_t fz_tiff_to8(unsigned v, int bits) {
    if (bits == 16) return (uint16_t)(v >> 8);
    if (bits == 8) return (uint16_t)v;
    return (uint16_t)(v * 255 / ((1u << bits) - 1));
}

// CMYK samples (and the extra sample after them as alpha, when the plan has 4 channels) into
// sRGB(A): through the profile, else the formula. Associated alpha is undone on the inks
// before they are converted.
static void fz_tiff_convert_cmyk(fz_tiff *t, uint8_t *dst) {
    const fz_tiff_plan *plan = &t->plan;
    uint32_t n = plan->x1 - plan->x0;
    int spp = t->info.spp, bits = t->info.bits, alpha = plan->out_channels == 4;
    const uint16_t *s = t->samples;
    uint8_t *c = t->cmyk_row;
    for (uint32_t x = 0; x < n; x++) {
        unsigned a = alpha ? fz_tiff_to8(s[(size_t)x * spp + 4], bits) : 255u;
        for (int k = 0; k < 4; k++) {
            unsigned v = fz_tiff_to8(s[(size_t)x * spp + k], bits);
            if (alpha && plan->unpremultiply && a != 255u) {
                unsigned q = a == 0 ? 0 : v * 255u / a;
                v = q > 255u ? 255u : q;
            }
            c[x * 4 + k] = (uint8_t)v;
        }
    }
    if (t->cmyk) {
        fz_color_apply(t->cmyk, c, dst, n);
    } else {
        uint8_t *o = dst;
        for (uint32_t x = 0; x < n; x++, c += 4, o += 3)
            for (int k = 0; k < 3; k++) {
                unsigned v = (255u - c[k]) * (255u - c[3]) + 128;  // as CMYK JPEGs' formula
                o[k] = (uint8_t)((v + (v >> 8)) >> 8);
            }
    }
    if (!alpha) return;
    // RGB was written packed at the front of the row: spread it to RGBA from the end, so no
    // pixel is overwritten before it moves.
    for (uint32_t x = n; x-- > 0;) {
        dst[(size_t)x * 4 + 2] = dst[(size_t)x * 3 + 2];
        dst[(size_t)x * 4 + 1] = dst[(size_t)x * 3 + 1];
        dst[(size_t)x * 4] = dst[(size_t)x * 3];
        dst[(size_t)x * 4 + 3] = (uint8_t)fz_tiff_to8(s[(size_t)x * spp + 4], bits);
    }
}

// t->samples into `dst` as the plan says.
static void fz_tiff_convert(fz_tiff *t, uint8_t *dst) {
    const fz_tiff_info *i = &t->info;
    const fz_tiff_plan *plan = &t->plan;
    uint32_t n = plan->x1 - plan->x0;
    int spp = i->spp, bits = i->bits, out = plan->out_channels, deep = plan->deep;
    unsigned maxv = bits == 16 ? 65535u : (1u << bits) - 1;
    const uint16_t *s = t->samples;
    if (plan->mode == FZ_TIFF_PALETTE) {
        for (uint32_t x = 0; x < n; x++, dst += 3) {
            unsigned k = s[(size_t)x * spp];
            dst[0] = (uint8_t)(t->red[k] >> 8), dst[1] = (uint8_t)(t->green[k] >> 8), dst[2] = (uint8_t)(t->blue[k] >> 8);
        }
        return;
    }
    if (plan->mode == FZ_TIFF_CMYK) {
        fz_tiff_convert_cmyk(t, dst);
        return;
    }
    int colors = plan->mode == FZ_TIFF_GRAY ? 1 : 3, alpha = out > colors;
    int invert = plan->mode == FZ_TIFF_GRAY && i->photometric == PHOTOMETRIC_MINISWHITE;
    for (uint32_t x = 0; x < n; x++) {
        const uint16_t *px = s + (size_t)x * spp;
        unsigned v[4];
        for (int k = 0; k < out; k++) {
            unsigned raw = px[k];
            if (k < colors && invert) raw = maxv - raw;
            v[k] = deep ? raw : fz_tiff_to8(raw, bits);
        }
        if (alpha && plan->unpremultiply) {
            unsigned a = v[colors], top = deep ? 65535u : 255u;
            for (int k = 0; k < colors; k++) {
                if (a == 0) v[k] = 0;
                else if (a != top) {
                    unsigned q = v[k] * top / a;  // truncated, as Pillow's RGBa unpacker
                    v[k] = q > top ? top : q;
                }
            }
        }
        for (int k = 0; k < out; k++) {
            if (deep) {
                *dst++ = (uint8_t)(v[k] >> 8);
                *dst++ = (uint8_t)(v[k] & 0xFF);
            } else {
                *dst++ = (uint8_t)v[k];
            }
        }
    }
}

int fz_tiff_read_row(fz_tiff *t, uint8_t *dst, int lenient, int *warned, char *message) {
    message[0] = '\0';
    const fz_tiff_info *i = &t->info;
    const fz_tiff_plan *plan = &t->plan;
    if (t->row >= i->height) return FZ_ERROR;
    uint32_t y = t->row++;
    if (plan->mode == FZ_TIFF_RGBA_IMAGE) {
        const uint32_t *src = t->rgba + (size_t)y * i->width + plan->x0;
        for (uint32_t x = plan->x0; x < plan->x1; x++, src++) {
            *dst++ = (uint8_t)TIFFGetR(*src), *dst++ = (uint8_t)TIFFGetG(*src), *dst++ = (uint8_t)TIFFGetB(*src);
            if (plan->out_channels == 4) *dst++ = (uint8_t)TIFFGetA(*src);
        }
        return FZ_OK;
    }
    uint32_t b = y / t->band_rows;
    if (t->band_index != (int64_t)b) {
        t->band_index = b;
        int before = t->errors;
        if (fz_tiff_decode_band(t, b) != FZ_OK || (t->errors > before && !lenient)) {
            fz_tiff_copy_error(t, message, "a strip or tile does not decode");
            if (!lenient) return FZ_ERROR;
            memset(t->band, 0, (size_t)t->unit * t->planes * (t->tx1 - t->tx0));
            *warned = 1;
        }
    }
    fz_tiff_gather(t, y);
    fz_tiff_convert(t, dst);
    return FZ_OK;
}
