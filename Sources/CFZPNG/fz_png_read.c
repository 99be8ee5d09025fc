// Over 300 lines on purpose: one PNG reader, chunk layer to pixels, whose parts (chunk
// checks, the colour chunks' validity rules, inflate, Adam7, sample expansion) share state
// (fz_png_read_private.h; rows inflated on a thread of their own: fz_png_pipe.c).
//
// forcezoom's own PNG reader (contract: fz_png_read.h). Why not libpng: its zlib inflate and
// byte-at-a-time unfiltering set the PNG floor (issue 38); ISA-L inflates twice as fast and
// the unfilter here works a pixel at a time (fz_png_unfilter.c). The verdicts follow
// libpng 1.6 as fz_png.c configured it: critical chunk errors fail, ancillary ones
// (bad CRC, bad values, out of place) are warnings and the chunk is dropped, and what
// "corrupt" and "truncated" mean is unchanged. Nothing here longjmps.
#include "fz_png_read_private.h"

#include <isa-l/crc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FZ_TAG(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))
// IDAT is read 8 KiB at a time, as libpng does (PNG_IDAT_READ_SIZE): a file cut short is
// found at the same row as before.
enum { FZ_IN_SIZE = 8192, FZ_MAX_CACHED = 15 };

// Colour chunk state, as libpng 1.6 keeps it (png_colorspace): an invalid combination
// drops gAMA, cHRM, sRGB and iCCP together.
enum { CS_GAMMA = 1, CS_ENDPOINTS = 2, CS_INTENT = 4, CS_FROM_GAMA = 8, CS_FROM_SRGB = 16, CS_FROM_CHRM = 32,
       CS_INVALID = 64 };


_Thread_local fz_pngr_status *fz_pngr_diverted;

// Copies `text` into a message buffer, cut to fit.
static void fz_pngr_copy(char *to, const char *text) {
    strncpy(to, text, FZ_MESSAGE_MAX - 1);
    to[FZ_MESSAGE_MAX - 1] = '\0';
}

void fz_pngr_fail(fz_pngr *r, fz_png_failure kind, const char *text) {
    fz_pngr_status *d = fz_pngr_diverted;
    if (d != NULL) {  // the inflating thread: kept until the rows before it are delivered
        if (d->failure == 0) {
            d->failure = kind;
            fz_pngr_copy(d->message, text);
        }
        return;
    }
    if (r->failure == 0) {
        r->failure = kind;
        fz_pngr_copy(r->message, text);
    }
}

// A benign problem (libpng's warnings and benign errors): counted; the first text kept.
void fz_pngr_warn(fz_pngr *r, const char *text) {
    fz_pngr_status *d = fz_pngr_diverted;
    if (d != NULL) {
        if (d->warnings++ == 0) fz_pngr_copy(d->warning, text);
        return;
    }
    r->warnings++;
    // As fz_png.c: libpng drops a broken iCCP with a warning; the file had a profile.
    if (strncmp(text, "iCCP", 4) == 0) r->header.has_iccp = 1;
    if (r->message[0] == '\0' && r->failure == 0) fz_pngr_copy(r->message, text);
}

static uint32_t fz_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

// Reads exactly n bytes; a short read is a truncation (libpng's "Read Error").
static int fz_pngr_read(fz_pngr *r, void *dst, size_t n) {
    if (n > 0 && fread(dst, 1, n, r->file) != n) {
        fz_pngr_fail(r, FZ_PNG_TRUNCATED, "Read Error");
        return FZ_ERROR;
    }
    return FZ_OK;
}

// The next chunk's length and type. Lengths over 2^31-1 and names that are not four
// letters are corrupt, as in png_read_chunk_header.
static int fz_pngr_chunk_header(fz_pngr *r) {
    uint8_t b[8];
    if (fz_pngr_read(r, b, 8) != FZ_OK) return FZ_ERROR;
    uint32_t length = fz_be32(b);
    if (length > 0x7fffffffu) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, "PNG unsigned integer out of range");
        return FZ_ERROR;
    }
    for (int i = 4; i < 8; i++) {
        uint8_t c = b[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) {
            fz_pngr_fail(r, FZ_PNG_CORRUPT, "invalid chunk type");
            return FZ_ERROR;
        }
    }
    r->chunk_type = fz_be32(b + 4);
    r->chunk_left = length;
    r->crc = crc32_gzip_refl(0, b + 4, 4);
    return FZ_OK;
}

static int fz_critical(uint32_t type) { return (type & 0x20000000u) == 0; }

// Reads the chunk's CRC and compares. 1: good, 0: bad (critical chunks fail, ancillary warn).
static int fz_pngr_crc_check(fz_pngr *r, int *status) {
    uint8_t b[4];
    *status = fz_pngr_read(r, b, 4);
    if (*status != FZ_OK) return 0;
    if (fz_be32(b) == r->crc) return 1;
    char text[32];
    uint32_t t = r->chunk_type;
    snprintf(text, sizeof text, "%c%c%c%c: CRC error", (char)(t >> 24), (char)(t >> 16), (char)(t >> 8), (char)t);
    if (fz_critical(t)) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, text);
        *status = FZ_ERROR;
    } else {
        fz_pngr_warn(r, text);
    }
    return 0;
}

// Reads the rest of the current chunk's data (dropping it) and its CRC.
static int fz_pngr_skip(fz_pngr *r, int *good) {
    uint8_t buf[4096];
    while (r->chunk_left > 0) {
        size_t n = r->chunk_left < sizeof buf ? r->chunk_left : sizeof buf;
        if (fz_pngr_read(r, buf, n) != FZ_OK) return FZ_ERROR;
        r->crc = crc32_gzip_refl(r->crc, buf, n);
        r->chunk_left -= (uint32_t)n;
    }
    int status;
    int ok = fz_pngr_crc_check(r, &status);
    if (good) *good = ok;
    return status;
}

// Reads a whole (small, bounded) chunk into a new buffer and checks its CRC. *data is NULL
// when the CRC was bad (ancillary: a warning), unless `keep_bad`: libpng keeps the chunks it
// caches (eXIf, iTXt, cICP) and an iCCP profile despite a bad CRC, with the warning.
static int fz_pngr_take(fz_pngr *r, uint8_t **data, int keep_bad) {
    *data = NULL;
    uint32_t n = r->chunk_left;
    uint8_t *p = malloc(n ? n : 1);
    if (p == NULL) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, "out of memory");
        return FZ_ERROR;
    }
    if (fz_pngr_read(r, p, n) != FZ_OK) {
        free(p);
        return FZ_ERROR;
    }
    r->crc = crc32_gzip_refl(r->crc, p, n);
    r->chunk_left = 0;
    int status;
    if (fz_pngr_crc_check(r, &status) || (keep_bad && status == FZ_OK)) *data = p;
    else free(p);
    return status;
}

static int fz_pngr_ihdr(fz_pngr *r, const uint8_t *b, uint32_t length) {
    if (length != 13) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, "IHDR: invalid");
        return FZ_ERROR;
    }
    uint32_t w = fz_be32(b), h = fz_be32(b + 4);
    if (w > 0x7fffffffu || h > 0x7fffffffu) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, "PNG unsigned integer out of range");
        return FZ_ERROR;
    }
    fz_png_header *hd = &r->header;
    hd->width = w;  // kept even when the checks below fail: the caller's limits come first
    hd->height = h;
    int depth = b[8], color = b[9];
    const char *bad = NULL;
    if (w == 0) bad = "Image width is zero in IHDR";
    else if (h == 0) bad = "Image height is zero in IHDR";
    else if (depth != 1 && depth != 2 && depth != 4 && depth != 8 && depth != 16) bad = "Invalid bit depth in IHDR";
    else if (color != 0 && color != 2 && color != 3 && color != 4 && color != 6) bad = "Invalid color type in IHDR";
    else if ((color == 3 && depth > 8) || ((color == 2 || color == 4 || color == 6) && depth < 8))
        bad = "Invalid color type/bit depth combination in IHDR";
    else if (b[12] > 1) bad = "Unknown interlace method in IHDR";
    else if (b[10] != 0) bad = "Unknown compression method in IHDR";
    else if (b[11] != 0) bad = "Unknown filter method in IHDR";
    if (bad) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, "Invalid IHDR data");  // libpng's text; `bad` says why
        return FZ_ERROR;
    }
    hd->bit_depth = depth;
    hd->color_type = color;
    hd->interlaced = b[12];
    return FZ_OK;
}

// cHRM's chromaticities must describe real colours (png_colorspace_check_xy's ranges).
static int fz_chrm_valid(const int32_t *v) {
    for (int i = 0; i < 8; i += 2) {
        if (v[i] < 0 || v[i] > 100000) return 0;
        if (v[i + 1] < 0 || v[i + 1] > 100000 - v[i]) return 0;
    }
    return v[1] > 0;  // white y
}

static int fz_endpoints_match(const int32_t *a, const int32_t *b, int delta) {
    for (int i = 0; i < 8; i++)
        if (abs(a[i] - b[i]) > delta) return 0;
    return 1;
}

static const int32_t fz_srgb_xy[8] = {31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000};

// libpng's png_gamma_significant: two gammas differ when their ratio is off 1 by over 5%.
static int fz_gamma_differs(int32_t old, int32_t new_value) {
    double ratio = (double)old * 100000.0 / (double)new_value;
    return ratio < 95000.0 || ratio > 105000.0;
}

static void fz_pngr_gama(fz_pngr *r, const uint8_t *b, uint32_t n) {
    if (r->seen_plte) return fz_pngr_warn(r, "gAMA: out of place");
    if (n != 4) return fz_pngr_warn(r, "gAMA: invalid");
    uint32_t g = fz_be32(b);
    if (g < 16 || g > 625000000 || (r->cs_flags & CS_FROM_GAMA)) {
        r->cs_flags |= CS_INVALID;
        return fz_pngr_warn(r, "gAMA: gamma value out of range or duplicate");
    }
    if (r->cs_flags & CS_INVALID) return;
    if ((r->cs_flags & CS_GAMMA) && (r->cs_flags & CS_FROM_SRGB) && fz_gamma_differs(r->gamma_fixed, (int32_t)g))
        return fz_pngr_warn(r, "gAMA: gamma value does not match sRGB");
    r->gamma_fixed = (int)g;
    r->cs_flags |= CS_GAMMA | CS_FROM_GAMA;
}

static void fz_pngr_chrm(fz_pngr *r, const uint8_t *b, uint32_t n) {
    if (r->seen_plte) return fz_pngr_warn(r, "cHRM: out of place");
    if (n != 32) return fz_pngr_warn(r, "cHRM: invalid");
    int32_t v[8];
    for (int i = 0; i < 8; i++) {
        uint32_t u = fz_be32(b + 4 * i);
        if (u > 0x7fffffffu) return fz_pngr_warn(r, "cHRM: invalid values");
        v[i] = (int32_t)u;
    }
    if (r->cs_flags & CS_INVALID) return;
    if (r->cs_flags & CS_FROM_CHRM) {
        r->cs_flags |= CS_INVALID;
        return fz_pngr_warn(r, "cHRM: duplicate");
    }
    r->cs_flags |= CS_FROM_CHRM;
    if (!fz_chrm_valid(v)) {
        r->cs_flags |= CS_INVALID;
        return fz_pngr_warn(r, "cHRM: invalid chromaticities");
    }
    if ((r->cs_flags & CS_ENDPOINTS) && !fz_endpoints_match(v, r->chrm_fixed, 100)) {
        r->cs_flags |= CS_INVALID;
        return fz_pngr_warn(r, "cHRM: inconsistent chromaticities");
    }
    memcpy(r->chrm_fixed, v, sizeof v);
    r->cs_flags |= CS_ENDPOINTS;
}

static void fz_pngr_set_srgb(fz_pngr *r, uint32_t intent) {
    if (intent > 3) {
        r->cs_flags |= CS_INVALID;
        return fz_pngr_warn(r, "sRGB: invalid sRGB rendering intent");
    }
    if ((r->cs_flags & CS_ENDPOINTS) && !fz_endpoints_match(fz_srgb_xy, r->chrm_fixed, 100))
        fz_pngr_warn(r, "sRGB: cHRM chunk does not match sRGB");
    if ((r->cs_flags & CS_GAMMA) && fz_gamma_differs(r->gamma_fixed, 45455)) fz_pngr_warn(r, "sRGB: gamma value does not match sRGB");
    r->header.srgb_intent = (int)intent;
    r->gamma_fixed = 45455;
    memcpy(r->chrm_fixed, fz_srgb_xy, sizeof fz_srgb_xy);
    r->cs_flags |= CS_GAMMA | CS_ENDPOINTS | CS_INTENT | CS_FROM_SRGB;
    r->header.has_srgb = 1;
}

static void fz_pngr_srgb(fz_pngr *r, const uint8_t *b, uint32_t n) {
    if (r->seen_plte) return fz_pngr_warn(r, "sRGB: out of place");
    if (n != 1) return fz_pngr_warn(r, "sRGB: invalid");
    if (r->cs_flags & CS_INVALID) return;
    if (r->cs_flags & CS_INTENT) return fz_pngr_warn(r, "sRGB: too many profiles");
    fz_pngr_set_srgb(r, b[0]);
}

// The published sRGB profiles (ICC's v2 and v4, and the two HP/Microsoft 1998 profiles
// flagged as incorrect), by length, rendering intent, Adler-32 and CRC-32 of the whole
// profile, and the profile ID (MD5) of its header where it has one. An embedded profile that
// is one of these counts as an sRGB chunk, as libpng 1.6 counts it (png_icc_set_sRGB).
static const struct {
    uint32_t length, intent, adler, crc, md5[4];
    int incorrect;
} fz_srgb_profiles[] = {
    {3048, 0, 0x0a3fd9f6, 0x3b8772b9, {0x29f83dde, 0xaff255ae, 0x7842fae4, 0xca83390d}, 0},
    {3052, 1, 0x4909e5e1, 0x427ebb21, {0xc95bd637, 0xe95d8a3b, 0x0df38f99, 0xc1320389}, 0},
    {60988, 0, 0xfd2144a1, 0x306fd8ae, {0xfc663378, 0x37e2886b, 0xfd72e983, 0x8228f1b8}, 0},
    {60960, 0, 0x209c35d2, 0xbbef7812, {0x34562abf, 0x994ccd06, 0x6d2c5721, 0xd0d68c5d}, 0},
    {3024, 1, 0xa054d762, 0x5d5129ce, {0, 0, 0, 0}, 0},
    {3144, 0, 0xf784f3fb, 0x182ea552, {0, 0, 0, 0}, 1},
    {3144, 1, 0x0398f3fc, 0xf29e526d, {0, 0, 0, 0}, 1},
};

static void fz_pngr_icc_srgb(fz_pngr *r, const uint8_t *p, uint32_t length) {
    uint32_t intent = fz_be32(p + 64);
    for (size_t i = 0; i < sizeof fz_srgb_profiles / sizeof fz_srgb_profiles[0]; i++) {
        const uint32_t *md5 = fz_srgb_profiles[i].md5;
        if (fz_be32(p + 84) != md5[0] || fz_be32(p + 88) != md5[1] || fz_be32(p + 92) != md5[2] ||
            fz_be32(p + 96) != md5[3])
            continue;
        if (length != fz_srgb_profiles[i].length || intent != fz_srgb_profiles[i].intent) continue;
        if (isal_adler32(1, p, length) == fz_srgb_profiles[i].adler && crc32_gzip_refl(0, p, length) == fz_srgb_profiles[i].crc) {
            if (fz_srgb_profiles[i].incorrect) fz_pngr_warn(r, "iCCP: known incorrect sRGB profile");
            else if (md5[0] == 0) fz_pngr_warn(r, "iCCP: out-of-date sRGB profile with no signature");
            fz_pngr_set_srgb(r, intent);
            return;
        }
        fz_pngr_warn(r, "iCCP: Not recognizing known sRGB profile that has been edited");
        return;
    }
}

// The first `cap` bytes of a zlib stream into `out`. Returns the bytes written, or -1 on a
// bad stream. As libpng, what follows the profile (its Adler-32 included) is not read:
// a checksum error once `cap` bytes are out is not an error.
static long fz_inflate_all(const uint8_t *src, size_t n, uint8_t *out, size_t cap) {
    struct inflate_state *s = malloc(sizeof *s);
    if (s == NULL) return -1;
    isal_inflate_init(s);
    s->crc_flag = ISAL_ZLIB;
    s->next_in = (uint8_t *)src;
    s->avail_in = (uint32_t)n;
    s->next_out = out;
    s->avail_out = (uint32_t)cap;
    int ret = isal_inflate(s);
    long got = (long)(cap - s->avail_out);
    free(s);
    if (ret < 0 && !(ret == ISAL_INCORRECT_CHECKSUM && (size_t)got == cap)) return -1;
    return got;
}

// png_icc_check_header and png_icc_check_tag_table's hard errors.
static const char *fz_icc_problem(const uint8_t *p, uint32_t length, int color_type) {
    if (fz_be32(p) != length) return "length does not match profile";
    if (p[8] > 3 && (length & 3) != 0) return "invalid length";
    if (fz_be32(p + 64) >= 0xffff) return "invalid rendering intent";
    if (fz_be32(p + 36) != FZ_TAG('a', 'c', 's', 'p')) return "invalid signature";
    uint32_t space = fz_be32(p + 16), cls = fz_be32(p + 12), pcs = fz_be32(p + 20);
    if (space == FZ_TAG('R', 'G', 'B', ' ')) {
        if ((color_type & 2) == 0) return "RGB color space not permitted on grayscale PNG";
    } else if (space == FZ_TAG('G', 'R', 'A', 'Y')) {
        if (color_type & 2) return "Gray color space not permitted on RGB PNG";
    } else {
        return "invalid ICC profile color space";
    }
    if (cls == FZ_TAG('a', 'b', 's', 't') || cls == FZ_TAG('l', 'i', 'n', 'k')) return "invalid ICC profile class";
    if (pcs != FZ_TAG('X', 'Y', 'Z', ' ') && pcs != FZ_TAG('L', 'a', 'b', ' ')) return "PCS field invalid";
    uint32_t tags = fz_be32(p + 128);
    if (tags > 357913930u || tags * 12u > length - 132) return "tag count too large";
    for (uint32_t i = 0; i < tags; i++) {
        uint32_t start = fz_be32(p + 132 + 12 * i + 4), len = fz_be32(p + 132 + 12 * i + 8);
        if (start > length || len > length - start) return "ICC profile tag outside profile";
    }
    return NULL;
}

// iCCP: keyword, method 0, a zlib stream inflating to the profile its header announces,
// no larger than the chunk limit. A profile refused leaves has_iccp set (the file had one)
// and, as in libpng, makes the colour chunks invalid together.
static void fz_pngr_iccp(fz_pngr *r, const uint8_t *b, uint32_t n) {
    const char *bad = NULL;
    if (r->seen_plte) bad = "out of place";
    else if (r->cs_flags & CS_INVALID) bad = "ignored";
    else if (r->cs_flags & CS_INTENT) bad = "too many profiles";
    if (bad) {
        char text[FZ_MESSAGE_MAX];
        snprintf(text, sizeof text, "iCCP: %s", bad);
        return fz_pngr_warn(r, text);
    }
    uint32_t k = 0;
    while (k < n && k < 80 && b[k] != 0) k++;
    if (k == 0 || k >= 80 || k + 2 > n) bad = "bad keyword";
    else if (b[k + 1] != 0) bad = "bad compression method";
    uint8_t head[132];
    uint32_t length = 0;
    if (!bad) {
        long got = fz_inflate_all(b + k + 2, n - k - 2, head, sizeof head);
        if (got < 132) bad = got < 0 ? "bad zlib data" : "too short";
        else if ((length = fz_be32(head)) < 132) bad = "too short";
        else if (length > r->chunk_max) bad = "exceeds application limits";
    }
    uint8_t *profile = NULL;
    if (!bad) {
        profile = malloc(length);
        if (profile == NULL) bad = "out of memory";
        long got = profile ? fz_inflate_all(b + k + 2, n - k - 2, profile, length) : -1;
        if (!bad && (got < 0 || (uint32_t)got < length)) bad = "truncated";
        if (!bad) bad = fz_icc_problem(profile, length, r->header.color_type);
    }
    if (bad) {
        free(profile);
        r->cs_flags |= CS_INVALID;
        char text[FZ_MESSAGE_MAX];
        snprintf(text, sizeof text, "iCCP: %s", bad);
        return fz_pngr_warn(r, text);
    }
    free(r->icc);
    r->icc = profile;
    r->header.icc_length = length;
    fz_pngr_icc_srgb(r, profile, length);
    r->cs_flags |= CS_INTENT;
}

static void fz_pngr_sbit(fz_pngr *r, const uint8_t *b, uint32_t n) {
    static const uint32_t sizes[7] = {1, 0, 3, 3, 2, 0, 4};
    int color = r->header.color_type;
    int sample = color == 3 ? 8 : r->header.bit_depth;
    if (r->seen_plte || r->header.has_sbit) return fz_pngr_warn(r, "sBIT: out of place or duplicate");
    if (n != sizes[color]) return fz_pngr_warn(r, "sBIT: invalid");
    for (uint32_t i = 0; i < n; i++)
        if (b[i] == 0 || b[i] > sample) return fz_pngr_warn(r, "sBIT: invalid");
    r->header.has_sbit = 1;
}

static void fz_pngr_trns(fz_pngr *r, const uint8_t *b, uint32_t n) {
    int color = r->header.color_type;
    if (r->header.has_trns) return fz_pngr_warn(r, "tRNS: duplicate");
    if (color == 0 && n == 2) {
        r->trns[0] = (uint16_t)((b[0] << 8) | b[1]);
    } else if (color == 2 && n == 6) {
        for (int i = 0; i < 3; i++) r->trns[i] = (uint16_t)((b[2 * i] << 8) | b[2 * i + 1]);
    } else if (color == 3 && r->seen_plte && n > 0 && n <= (uint32_t)r->num_palette) {
        memcpy(r->trns_alpha, b, n);
        r->num_trns = (int)n;
    } else {
        return fz_pngr_warn(r, "tRNS: invalid");
    }
    r->header.has_trns = 1;
}

static int fz_pngr_plte(fz_pngr *r, const uint8_t *b, uint32_t n) {
    int color = r->header.color_type;
    if (r->seen_plte) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, "PLTE: duplicate");
        return FZ_ERROR;
    }
    if (n > 768 || n % 3 != 0 || n == 0) {
        if (color != 3 && n != 0) {
            fz_pngr_warn(r, "PLTE: invalid");
            return FZ_OK;
        }
        fz_pngr_fail(r, FZ_PNG_CORRUPT, n == 0 ? "Invalid palette" : "PLTE: invalid");
        return FZ_ERROR;
    }
    r->seen_plte = 1;
    if (color == 0 || color == 4) {
        fz_pngr_warn(r, "PLTE: ignored in grayscale PNG");
        return FZ_OK;
    }
    int count = (int)(n / 3), most = color == 3 ? 1 << r->header.bit_depth : 256;
    r->num_palette = count < most ? count : most;
    memcpy(r->palette, b, (size_t)r->num_palette * 3);
    return FZ_OK;
}

// eXIf, the XMP iTXt and cICP: the first of each, kept as libpng's chunk cache kept them.
static void fz_pngr_keep(fz_pngr *r, uint8_t *data, uint32_t n) {
    static const char xmp_key[] = "XML:com.adobe.xmp";  // and its NUL
    fz_png_header *h = &r->header;
    if (r->cached >= FZ_MAX_CACHED) {
        free(data);
        return;
    }
    r->cached++;
    if (r->chunk_type == FZ_TAG('e', 'X', 'I', 'f') && n > 0 && r->exif == NULL) {
        r->exif = data;
        h->exif_length = n;
    } else if (r->chunk_type == FZ_TAG('i', 'T', 'X', 't') && n > sizeof xmp_key && r->xmp == NULL &&
               memcmp(data, xmp_key, sizeof xmp_key) == 0) {
        r->xmp = data;
        h->xmp_itxt_length = n;
    } else {
        if (r->chunk_type == FZ_TAG('c', 'I', 'C', 'P') && n == 4 && !h->has_cicp) {
            h->has_cicp = 1;
            memcpy(h->cicp, data, 4);
        }
        free(data);
    }
}

// The colour chunks' verdict, and the header as libpng's info reported it.
static void fz_pngr_settle(fz_pngr *r) {
    fz_png_header *h = &r->header;
    int valid = (r->cs_flags & CS_INVALID) == 0;
    h->has_gamma = valid && (r->cs_flags & CS_GAMMA);
    h->gamma = h->has_gamma ? r->gamma_fixed * .00001 : 0;
    h->has_chrm = valid && (r->cs_flags & CS_ENDPOINTS);
    for (int i = 0; i < 8; i++) h->chrm[i] = h->has_chrm ? r->chrm_fixed[i] * .00001 : 0;
    h->has_srgb = valid && (r->cs_flags & CS_FROM_SRGB);
    if (!h->has_srgb) h->srgb_intent = -1;
    int icc_valid = valid && r->icc != NULL;
    h->icc = icc_valid ? r->icc : NULL;
    if (!icc_valid) h->icc_length = 0;
    h->has_iccp = icc_valid || h->has_iccp;  // has_iccp: a profile was refused (a warning)
    h->exif = r->exif;
    h->xmp_itxt = r->xmp;
}

// One ancillary or critical chunk before the first IDAT.
static int fz_pngr_chunk(fz_pngr *r, int *seen_ihdr) {
    uint32_t t = r->chunk_type, n = r->chunk_left;
    if (t == FZ_TAG('I', 'H', 'D', 'R')) {
        if (*seen_ihdr) {
            fz_pngr_fail(r, FZ_PNG_CORRUPT, "IHDR: out of place");
            return FZ_ERROR;
        }
        if (n != 13) {
            fz_pngr_fail(r, FZ_PNG_CORRUPT, "IHDR: invalid");
            return FZ_ERROR;
        }
        uint8_t *b;
        if (fz_pngr_take(r, &b, 0) != FZ_OK) return FZ_ERROR;
        int status = fz_pngr_ihdr(r, b, n);
        free(b);
        *seen_ihdr = 1;
        return status;
    }
    int ancillary = !fz_critical(t);
    int kept = t == FZ_TAG('e', 'X', 'I', 'f') || t == FZ_TAG('i', 'T', 'X', 't') || t == FZ_TAG('c', 'I', 'C', 'P');
    if (!*seen_ihdr && !(ancillary && (kept || (t != FZ_TAG('g', 'A', 'M', 'A') && t != FZ_TAG('c', 'H', 'R', 'M') &&
                                                t != FZ_TAG('s', 'R', 'G', 'B') && t != FZ_TAG('s', 'B', 'I', 'T') &&
                                                t != FZ_TAG('i', 'C', 'C', 'P') && t != FZ_TAG('t', 'R', 'N', 'S'))))) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, "missing IHDR");
        return FZ_ERROR;
    }
    if (t == FZ_TAG('I', 'E', 'N', 'D')) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, "IEND: out of place");
        return FZ_ERROR;
    }
    if (t == FZ_TAG('P', 'L', 'T', 'E')) {
        if (n > 768) {
            if (fz_pngr_skip(r, NULL) != FZ_OK) return FZ_ERROR;
            if (r->header.color_type != 3) {
                fz_pngr_warn(r, "PLTE: invalid");
                return FZ_OK;
            }
            fz_pngr_fail(r, FZ_PNG_CORRUPT, "PLTE: invalid");
            return FZ_ERROR;
        }
        uint8_t *b;
        if (fz_pngr_take(r, &b, 0) != FZ_OK) return FZ_ERROR;
        int status = b ? fz_pngr_plte(r, b, n) : FZ_OK;
        free(b);
        return status;
    }
    if (!ancillary) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, "unknown critical chunk");
        return FZ_ERROR;
    }
    int handled = kept || t == FZ_TAG('g', 'A', 'M', 'A') || t == FZ_TAG('c', 'H', 'R', 'M') ||
                  t == FZ_TAG('s', 'R', 'G', 'B') || t == FZ_TAG('s', 'B', 'I', 'T') ||
                  t == FZ_TAG('i', 'C', 'C', 'P') || t == FZ_TAG('t', 'R', 'N', 'S');
    // Bounded: no ancillary chunk larger than the limit is read into memory.
    if (!handled || n > r->chunk_max || (!kept && t != FZ_TAG('i', 'C', 'C', 'P') && n > 1024)) {
        if (handled && n > r->chunk_max) {
            if (t == FZ_TAG('i', 'C', 'C', 'P')) r->cs_flags |= CS_INVALID;
            fz_pngr_warn(r, t == FZ_TAG('i', 'C', 'C', 'P') ? "iCCP: chunk data is too large" : "chunk data is too large");
        }
        return fz_pngr_skip(r, NULL);
    }
    uint8_t *b;
    if (fz_pngr_take(r, &b, kept || t == FZ_TAG('i', 'C', 'C', 'P')) != FZ_OK) return FZ_ERROR;
    if (b == NULL) return FZ_OK;
    if (kept) return fz_pngr_keep(r, b, n), FZ_OK;
    if (t == FZ_TAG('g', 'A', 'M', 'A')) fz_pngr_gama(r, b, n);
    else if (t == FZ_TAG('c', 'H', 'R', 'M')) fz_pngr_chrm(r, b, n);
    else if (t == FZ_TAG('s', 'R', 'G', 'B')) fz_pngr_srgb(r, b, n);
    else if (t == FZ_TAG('s', 'B', 'I', 'T')) fz_pngr_sbit(r, b, n);
    else if (t == FZ_TAG('i', 'C', 'C', 'P')) fz_pngr_iccp(r, b, n);
    else fz_pngr_trns(r, b, n);
    free(b);
    return FZ_OK;
}

int fz_pngr_open(FILE *file, size_t chunk_malloc_max, fz_pngr **out) {
    fz_pngr *r = calloc(1, sizeof *r);
    *out = r;
    if (r == NULL) return FZ_ERROR;
    r->file = file;
    r->chunk_max = chunk_malloc_max ? chunk_malloc_max : 0x7fffffff;
    r->header.srgb_intent = -1;
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
    uint8_t sig[8];
    if (fz_pngr_read(r, sig, 8) != FZ_OK) return FZ_ERROR;
    if (memcmp(sig, signature, 8) != 0) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, memcmp(sig, signature, 4) == 0 ? "PNG file corrupted by ASCII conversion"
                                                                       : "Not a PNG file");
        return FZ_ERROR;
    }
    int seen_ihdr = 0;
    for (;;) {
        if (fz_pngr_chunk_header(r) != FZ_OK) return FZ_ERROR;
        if (r->chunk_type == FZ_TAG('I', 'D', 'A', 'T')) break;
        if (fz_pngr_chunk(r, &seen_ihdr) != FZ_OK) return FZ_ERROR;
    }
    if (!seen_ihdr) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, "IDAT: Missing IHDR before IDAT");
        return FZ_ERROR;
    }
    if (r->header.color_type == 3 && !r->seen_plte) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, "IDAT: Missing PLTE before IDAT");
        return FZ_ERROR;
    }
    fz_pngr_settle(r);
    r->message[0] = '\0';  // warnings so far stay counted; the text is for errors
    return FZ_OK;
}

static int fz_pngr_start_depth(fz_pngr *r, int keep16) {
    fz_png_header *h = &r->header;
    if (r->started) return FZ_OK;
    int color = h->color_type, depth = h->bit_depth;
    int stored_channels = color == 0 || color == 3 ? 1 : color == 4 ? 2 : color == 2 ? 3 : 4;
    int alpha = (color & 4) != 0 || h->has_trns;
    h->channels = ((color & 2) ? 3 : 1) + (alpha ? 1 : 0);
    r->keep16 = keep16 && depth == 16;
    int bits = stored_channels * depth;
    r->bpp = bits < 8 ? 1 : bits / 8;
    r->stored_bytes = ((size_t)h->width * (size_t)bits + 7) / 8;
    size_t out_bytes = (size_t)h->width * (size_t)h->channels * (r->keep16 ? 2 : 1);
    r->cur = calloc(1, r->stored_bytes + 1);
    r->prev = calloc(1, r->stored_bytes + 1);
    r->line = h->interlaced ? malloc(out_bytes) : NULL;
    r->inflate = malloc(sizeof *r->inflate);
    r->in = malloc(FZ_IN_SIZE);
    if (r->cur == NULL || r->prev == NULL || (h->interlaced && r->line == NULL) || r->inflate == NULL ||
        r->in == NULL) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, "out of memory");
        return FZ_ERROR;
    }
    isal_inflate_init(r->inflate);
    // The zlib header and Adler-32 are read here (fz_pngr_zlib_header, fz_pngr_trailer), so
    // the checksum is compared where zlib compares it: when the stream ends, not earlier.
    r->inflate->crc_flag = ISAL_DEFLATE;
    r->adler = 1;
    r->inflate->avail_in = 0;
    r->started = 1;
    return FZ_OK;
}

int fz_pngr_start(fz_pngr *reader) { return fz_pngr_start_depth(reader, 0); }
int fz_pngr_start_keep16(fz_pngr *reader) { return fz_pngr_start_depth(reader, 1); }

// More compressed bytes: the rest of this IDAT, or the next IDAT (after this one's CRC).
// A chunk other than IDAT means the image data ended early (libpng: "Not enough image data").
static int fz_pngr_more(fz_pngr *r) {
    while (r->chunk_left == 0) {
        int status;
        fz_pngr_crc_check(r, &status);
        if (status != FZ_OK) return FZ_ERROR;
        if (fz_pngr_chunk_header(r) != FZ_OK) return FZ_ERROR;
        if (r->chunk_type != FZ_TAG('I', 'D', 'A', 'T')) {
            fz_pngr_fail(r, FZ_PNG_TRUNCATED, "Not enough image data");
            return FZ_ERROR;
        }
    }
    size_t want = r->chunk_left < FZ_IN_SIZE ? r->chunk_left : FZ_IN_SIZE;
    if (fz_pngr_read(r, r->in, want) != FZ_OK) return FZ_ERROR;
    size_t got = want;
    r->crc = crc32_gzip_refl(r->crc, r->in, got);
    r->chunk_left -= (uint32_t)got;
    r->inflate->next_in = r->in;
    r->inflate->avail_in = (uint32_t)got;
    return FZ_OK;
}

// One compressed byte (the zlib header's and trailer's, which may straddle IDAT chunks).
static int fz_pngr_byte(fz_pngr *r, uint8_t *b) {
    if (r->inflate->avail_in == 0 && fz_pngr_more(r) != FZ_OK) return FZ_ERROR;
    *b = *r->inflate->next_in++;
    r->inflate->avail_in--;
    return FZ_OK;
}

// The zlib header (RFC 1950): deflate, a window of at most 32 KiB, no preset dictionary.
static int fz_pngr_zlib_header(fz_pngr *r) {
    uint8_t cmf, flg;
    if (fz_pngr_byte(r, &cmf) != FZ_OK || fz_pngr_byte(r, &flg) != FZ_OK) return FZ_ERROR;
    const char *bad = NULL;
    if (((cmf << 8) | flg) % 31 != 0) bad = "IDAT: incorrect header check";
    else if ((cmf & 15) != 8) bad = "IDAT: unknown compression method";
    else if ((cmf >> 4) > 7) bad = "IDAT: invalid window size";
    else if (flg & 32) bad = "IDAT: missing dictionary";
    if (bad) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, bad);
        return FZ_ERROR;
    }
    r->zlib_header = 1;
    return FZ_OK;
}

// The Adler-32 after the last deflate block. A mismatch fails while rows are still wanted
// and is a warning after the last one, as in libpng.
static int fz_pngr_trailer(fz_pngr *r, int finishing) {
    // ISA-L leaves the whole bytes it read past the last block in its bit buffer (after
    // the block's last bits): they start the trailer; the rest follows in the input.
    struct inflate_state *s = r->inflate;
    int bits = s->read_in_length;
    uint64_t held = bits > 0 ? s->read_in >> (bits & 7) : 0;
    int whole = bits > 0 ? bits / 8 : 0;
    uint8_t b[4];
    for (int i = 0; i < 4; i++) {
        if (i < whole) {
            b[i] = (uint8_t)(held >> (8 * i));
        } else if (fz_pngr_byte(r, &b[i]) != FZ_OK) {
            return FZ_ERROR;
        }
    }
    // Bytes held past the trailer go back to the input count, so "extra compressed
    // data" is still seen.
    if (whole > 4) r->extra_held = 1;
    s->read_in_length = 0;
    s->read_in = 0;
    if (fz_be32(b) == r->adler) return FZ_OK;
    if (finishing) {
        fz_pngr_warn(r, "IDAT: incorrect data check");
        return FZ_OK;
    }
    fz_pngr_fail(r, FZ_PNG_CORRUPT, "IDAT: incorrect data check");
    return FZ_ERROR;
}

// Inflates exactly n bytes into out. With `finishing`, n is 1 and a byte is "too much image
// data" (returns FZ_OK with *extra set); the stream's end is what is hoped for.
int fz_pngr_inflate(fz_pngr *r, uint8_t *out, size_t n, int finishing, int *extra) {
    struct inflate_state *s = r->inflate;
    if (!r->zlib_header && fz_pngr_zlib_header(r) != FZ_OK) return FZ_ERROR;
    s->next_out = out;
    s->avail_out = (uint32_t)n;
    for (;;) {
        if (r->stream_ended) break;
        if (r->bad_after) {
            // Bad data past the bytes asked for last time (ISA-L decodes ahead): zlib would
            // meet it now, a warning once the rows are all out, as in libpng.
            if (finishing) {
                fz_pngr_warn(r, "IDAT: invalid compressed data");
                r->stream_ended = 1;
                break;
            }
            fz_pngr_fail(r, FZ_PNG_CORRUPT, "IDAT: invalid compressed data");
            return FZ_ERROR;
        }
        uint32_t before_in = s->avail_in, before_out = s->avail_out;
        uint8_t *from = s->next_out;
        int ret = isal_inflate(s);
        r->adler = isal_adler32(r->adler, from, (uint64_t)(s->next_out - from));
        if (ret < 0) {
            if (s->avail_out == 0 && !finishing) {
                r->bad_after = 1;
                break;
            }
            fz_pngr_fail(r, FZ_PNG_CORRUPT, "IDAT: invalid compressed data");
            return FZ_ERROR;
        }
        if (s->block_state == ISAL_BLOCK_FINISH) {
            r->stream_ended = 1;
            if (fz_pngr_trailer(r, finishing) != FZ_OK) return FZ_ERROR;
            break;
        }
        if (s->avail_out == 0) break;
        if (s->avail_in == 0) {
            if (fz_pngr_more(r) != FZ_OK) return FZ_ERROR;
        } else if (before_in == s->avail_in && before_out == s->avail_out) {
            fz_pngr_fail(r, FZ_PNG_CORRUPT, "IDAT: invalid compressed data");
            return FZ_ERROR;
        }
    }
    if (finishing) {
        *extra = s->avail_out == 0 && !r->bad_after;
        return FZ_OK;
    }
    if (s->avail_out > 0) {
        fz_pngr_fail(r, FZ_PNG_TRUNCATED, "Not enough image data");
        return FZ_ERROR;
    }
    return FZ_OK;
}

// One stored row of `bytes` bytes (its filter byte first) into r->cur, unfiltered against r->prev.
static int fz_pngr_row(fz_pngr *r, size_t bytes) {
    if (fz_pngr_inflate(r, r->cur, bytes + 1, 0, NULL) != FZ_OK) return FZ_ERROR;
    if (fz_png_unfilter(r->cur + 1, r->prev + 1, bytes, r->bpp, r->cur[0]) != FZ_OK) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, "bad adaptive filter value");
        return FZ_ERROR;
    }
    return FZ_OK;
}

static inline uint8_t fz_scale16(unsigned v) { return (uint8_t)((v * 255u + 32895u) >> 16); }

// A stored row of `width` pixels (unfiltered, no filter byte) to forcezoom's layout: palette
// to RGB(A), gray 1/2/4 to 8 bits, tRNS to alpha, 16 bits kept (big-endian) or rounded.
// Hot: one pass per row, the common layouts (8-bit without tRNS) a copy.
void fz_pngr_expand(fz_pngr *r, const uint8_t *src, uint32_t width, uint8_t *dst) {
    const fz_png_header *h = &r->header;
    int color = h->color_type, depth = h->bit_depth, trns = h->has_trns;
    if (color == 3 || depth < 8) {
        int mask = (1 << depth) - 1, scale = depth == 1 ? 255 : depth == 2 ? 0x55 : depth == 4 ? 0x11 : 1;
        int trns_gray = r->trns[0] & mask;
        for (uint32_t x = 0; x < width; x++) {
            int v;
            if (depth == 8) v = src[x];
            else {
                size_t bit = (size_t)x * (size_t)depth;
                v = (src[bit >> 3] >> (8 - depth - (int)(bit & 7))) & mask;
            }
            if (color == 3) {
                if (v >= r->num_palette) r->bad_index = 1;
                memcpy(dst, r->palette + 3 * v, 3);  // zeros past the palette, as libpng's
                dst += 3;
                if (trns) *dst++ = v < r->num_trns ? r->trns_alpha[v] : 255;
            } else {
                *dst++ = (uint8_t)(v * scale);
                if (trns) *dst++ = v == trns_gray ? 0 : 255;
            }
        }
        return;
    }
    int channels = color == 0 ? 1 : color == 4 ? 2 : color == 2 ? 3 : 4;
    if (depth == 8) {
        if (!trns) {
            memcpy(dst, src, (size_t)width * (size_t)channels);
            return;
        }
        uint8_t t0 = (uint8_t)r->trns[0], t1 = (uint8_t)r->trns[1], t2 = (uint8_t)r->trns[2];
        for (uint32_t x = 0; x < width; x++, src += channels) {
            memcpy(dst, src, (size_t)channels);
            dst += channels;
            int clear = channels == 1 ? src[0] == t0 : (src[0] == t0 && src[1] == t1 && src[2] == t2);
            *dst++ = clear ? 0 : 255;
        }
        return;
    }
    // 16 bits: tRNS compares the full samples, before any rounding.
    for (uint32_t x = 0; x < width; x++, src += 2 * channels) {
        int clear = 0;
        if (trns) {
            clear = 1;
            for (int c = 0; c < channels; c++)
                if (((src[2 * c] << 8) | src[2 * c + 1]) != r->trns[c]) clear = 0;
        }
        if (r->keep16) {
            memcpy(dst, src, (size_t)channels * 2);
            dst += channels * 2;
            if (trns) {
                *dst++ = clear ? 0 : 255;
                *dst++ = clear ? 0 : 255;
            }
        } else {
            for (int c = 0; c < channels; c++) *dst++ = fz_scale16(((unsigned)src[2 * c] << 8) | src[2 * c + 1]);
            if (trns) *dst++ = clear ? 0 : 255;
        }
    }
}

// After the image data: the end of the zlib stream (a byte more is "too much image data",
// benign) and the rest of this IDAT with its CRC (libpng's png_read_finish_IDAT, part of
// reading the last row: a failure here loses that row, as in libpng).
int fz_pngr_finish_idat(fz_pngr *r) {
    if (r->rows_done) return FZ_OK;
    r->rows_done = 1;
    if (!r->stream_ended) {
        uint8_t one;
        int extra = 0;
        if (fz_pngr_inflate(r, &one, 1, 1, &extra) != FZ_OK) return FZ_ERROR;
        if (extra) fz_pngr_warn(r, "IDAT: Too much image data");
    } else if (r->inflate->avail_in > 0 || r->chunk_left > 0 || r->extra_held) {
        fz_pngr_warn(r, "IDAT: Extra compressed data");
    }
    // (The inflating thread leaves this to the rows' thread, which sets bad_index: fz_png_pipe.c.)
    if (r->bad_index && fz_pngr_diverted == NULL) fz_pngr_warn(r, "Read palette index exceeding num_palette");
    return fz_pngr_skip(r, NULL);  // the rest of the last IDAT
}

// Then every chunk to IEND (libpng's png_read_end).
int fz_pngr_end(fz_pngr *r) {
    if (r->at_end) return FZ_OK;
    r->at_end = 1;
    if (fz_pngr_finish_idat(r) != FZ_OK) return FZ_ERROR;
    for (;;) {
        if (fz_pngr_chunk_header(r) != FZ_OK) return FZ_ERROR;
        uint32_t t = r->chunk_type;
        if (t == FZ_TAG('I', 'E', 'N', 'D')) {
            if (r->chunk_left != 0) fz_pngr_warn(r, "IEND: invalid");
            return fz_pngr_skip(r, NULL);
        }
        // After the image libpng skips what it does not know, critical or not.
        if (t == FZ_TAG('I', 'H', 'D', 'R')) {
            fz_pngr_fail(r, FZ_PNG_CORRUPT, "IHDR: out of place");
            return FZ_ERROR;
        }
        if (t == FZ_TAG('P', 'L', 'T', 'E')) fz_pngr_warn(r, "PLTE: out of place");
        if (fz_pngr_skip(r, NULL) != FZ_OK) return FZ_ERROR;
    }
}

int fz_pngr_read_rows(fz_pngr *r, uint8_t *rows, uint32_t count, size_t stride, uint32_t *done) {
    *done = 0;
    if (!r->started || r->failure) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, "reader not started");
        return FZ_ERROR;
    }
    if (r->pipe != NULL || fz_pngr_pipe_begin(r)) return fz_pngr_pipe_rows(r, rows, count, stride, done);
    for (uint32_t i = 0; i < count; i++) {
        if (r->rows_read >= r->header.height) break;
        if (fz_pngr_row(r, r->stored_bytes) != FZ_OK) return FZ_ERROR;
        if (r->rows_read + 1 == r->header.height && fz_pngr_finish_idat(r) != FZ_OK) return FZ_ERROR;
        fz_pngr_expand(r, r->cur + 1, r->header.width, rows + (size_t)i * stride);
        uint8_t *t = r->prev;
        r->prev = r->cur;
        r->cur = t;
        r->rows_read++;
        *done = i + 1;
    }
    // After the last row, read on to IEND so a file cut or damaged after its image data is
    // found. A crop that stops early never gets here.
    if (r->rows_read >= r->header.height) return fz_pngr_end(r);
    return FZ_OK;
}

int fz_pngr_read_interlaced(fz_pngr *r, uint8_t *pixels, size_t stride) {
    static const uint8_t sx[7] = {0, 4, 0, 2, 0, 1, 0}, sy[7] = {0, 0, 4, 0, 2, 0, 1};
    static const uint8_t dx[7] = {8, 8, 4, 4, 2, 2, 1}, dy[7] = {8, 8, 8, 4, 4, 2, 2};
    if (!r->started || r->failure) {
        fz_pngr_fail(r, FZ_PNG_CORRUPT, "reader not started");
        return FZ_ERROR;
    }
    const fz_png_header *h = &r->header;
    size_t pixel = (size_t)h->channels * (r->keep16 ? 2 : 1);
    int bits = r->header.color_type == 0 || r->header.color_type == 3 ? 1
               : r->header.color_type == 4                          ? 2
               : r->header.color_type == 2                          ? 3
                                                                    : 4;
    bits *= h->bit_depth;
    for (int p = 0; p < 7; p++) {
        uint32_t w = h->width > sx[p] ? (h->width - sx[p] + dx[p] - 1) / dx[p] : 0;
        uint32_t rows = h->height > sy[p] ? (h->height - sy[p] + dy[p] - 1) / dy[p] : 0;
        if (w == 0 || rows == 0) continue;
        size_t bytes = ((size_t)w * (size_t)bits + 7) / 8;
        memset(r->prev, 0, bytes + 1);
        for (uint32_t y = 0; y < rows; y++) {
            if (fz_pngr_row(r, bytes) != FZ_OK) return FZ_ERROR;
            fz_pngr_expand(r, r->cur + 1, w, r->line);
            uint8_t *out = pixels + (size_t)(sy[p] + y * dy[p]) * stride + (size_t)sx[p] * pixel;
            for (uint32_t x = 0; x < w; x++) memcpy(out + (size_t)x * dx[p] * pixel, r->line + (size_t)x * pixel, pixel);
            uint8_t *t = r->prev;
            r->prev = r->cur;
            r->cur = t;
        }
    }
    r->rows_read = h->height;
    return fz_pngr_end(r);
}

const fz_png_header *fz_pngr_header_of(const fz_pngr *r) { return &r->header; }
const char *fz_pngr_message(const fz_pngr *r) { return r->message; }
fz_png_failure fz_pngr_failure_of(const fz_pngr *r) { return r->failure ? r->failure : FZ_PNG_CORRUPT; }
int fz_pngr_warning_count(const fz_pngr *r) { return r->warnings; }

void fz_pngr_set_threads(fz_pngr *r, int threads, size_t minimum_bytes) {
    r->pipe_threads = threads;
    r->pipe_minimum = minimum_bytes;
}

void fz_pngr_free(fz_pngr *r) {
    if (r == NULL) return;
    fz_pngr_pipe_end(r);  // a crop that stopped early: the inflating thread stops too
    free(r->exif);
    free(r->icc);
    free(r->xmp);
    free(r->inflate);
    free(r->in);
    free(r->cur);
    free(r->prev);
    free(r->line);
    free(r);
}
