// Over 300 lines on purpose: every lcms2 call (profiles from ICC, from PNG's gAMA/cHRM and from
// nclx, transforms at 8 and 16 bits and in float) stays in this one file with its log handler.
// fz_color.c: colour conversion to sRGB with lcms2. lcms2 never longjmps, but it reports
// errors through a log handler instead of return values alone: the handler here copies the
// message into a per-thread buffer that the create call hands back, so Swift gets a status
// and a message like every other shim.
//
// Transforms are cached by profile bytes, pixel formats and intent (a batch of photos from
// one camera builds one transform, not one per file). Cached transforms are made with
// cmsFLAGS_NOCACHE (no shared one-pixel cache), so threads may use one at once; they live
// until the process ends, and fz_color_free leaves them alone.
#include "fz_color.h"
#include <lcms2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static __thread char fz_lcms_message[FZ_MESSAGE_MAX];

static void fz_lcms_log(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)context;
    (void)code;
    if (text == NULL) text = "lcms2 error";
    strncpy(fz_lcms_message, text, FZ_MESSAGE_MAX - 1);
    fz_lcms_message[FZ_MESSAGE_MAX - 1] = '\0';
}

struct fz_color_transform {
    cmsHTRANSFORM transform;
    int cached;
};

/// Profiles up to this size are cached; at most this many transforms are.
#define FZ_COLOR_CACHE_PROFILE_MAX (2u << 20)
#define FZ_COLOR_CACHE_ENTRIES 16

typedef struct {
    uint8_t *icc;
    size_t length;
    cmsUInt32Number in_format, out_format;
    int intent, bpc;
    cmsUInt32Number extra;  // flags beyond intent and compensation (cmsFLAGS_NOOPTIMIZE)
    fz_color_transform *transform;
} fz_color_cache_entry;

static fz_color_cache_entry fz_color_cache[FZ_COLOR_CACHE_ENTRIES];
static int fz_color_cache_count;
static pthread_mutex_t fz_color_cache_lock = PTHREAD_MUTEX_INITIALIZER;

/// sRGB's tone curve (IEC 61966-2-1), for gray output.
static cmsToneCurve *fz_srgb_curve(void) {
    cmsFloat64Number p[5] = {2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045};
    return cmsBuildParametricToneCurve(NULL, 4, p);
}

static void fz_color_say(char *message, const char *fallback) {
    strncpy(message, fz_lcms_message[0] ? fz_lcms_message : fallback, FZ_MESSAGE_MAX - 1);
    message[FZ_MESSAGE_MAX - 1] = '\0';
}

/// Opens `icc` with lcms2's errors going to the per-thread message; NULL with `message`
/// filled when lcms2 cannot read it.
static cmsHPROFILE fz_color_open(const uint8_t *icc, size_t length, char *message) {
    fz_lcms_message[0] = '\0';
    cmsSetLogErrorHandler(fz_lcms_log);
    cmsHPROFILE p = cmsOpenProfileFromMem(icc, (cmsUInt32Number)length);
    if (p == NULL) fz_color_say(message, "lcms2 cannot read the profile");
    return p;
}

/// Builds (or finds in the cache) a transform from the pixels `icc` describes, stored as
/// `in_format`, to sRGB stored as `out_format`. `expected` is the colour space the profile
/// must have. `extra` adds lcms2 flags (cmsFLAGS_NOOPTIMIZE).
static int fz_color_make(const uint8_t *icc, size_t length, cmsColorSpaceSignature expected, cmsUInt32Number in_format,
                         cmsUInt32Number out_format, int gray_target, int intent, int bpc, cmsUInt32Number extra,
                         fz_color_transform **out, char *message) {
    *out = NULL;
    message[0] = '\0';
    int cacheable = length <= FZ_COLOR_CACHE_PROFILE_MAX;
    if (cacheable) {
        pthread_mutex_lock(&fz_color_cache_lock);
        for (int i = 0; i < fz_color_cache_count; i++) {
            fz_color_cache_entry *e = &fz_color_cache[i];
            if (e->length == length && e->in_format == in_format && e->out_format == out_format && e->intent == intent &&
                e->bpc == bpc && e->extra == extra && memcmp(e->icc, icc, length) == 0) {
                *out = e->transform;
                pthread_mutex_unlock(&fz_color_cache_lock);
                return FZ_OK;
            }
        }
        pthread_mutex_unlock(&fz_color_cache_lock);
    }
    cmsHPROFILE source = fz_color_open(icc, length, message);
    if (source == NULL) return FZ_ERROR;
    cmsColorSpaceSignature space = cmsGetColorSpace(source);
    if (space != expected) {
        cmsCloseProfile(source);
        snprintf(message, FZ_MESSAGE_MAX, "the profile's colour space does not match the pixels");
        return FZ_ERROR;
    }
    cmsHPROFILE target;
    if (gray_target) {
        cmsToneCurve *curve = fz_srgb_curve();
        target = curve ? cmsCreateGrayProfile(cmsD50_xyY(), curve) : NULL;
        if (curve) cmsFreeToneCurve(curve);
    } else {
        target = cmsCreate_sRGBProfile();
    }
    if (target == NULL) {
        cmsCloseProfile(source);
        snprintf(message, FZ_MESSAGE_MAX, "lcms2 cannot make the sRGB profile");
        return FZ_ERROR;
    }
    // Black-point compensation scales the source's black point onto the target's. The target
    // here is lcms2's sRGB (or sRGB-curved gray), whose black point is zero; when the source's
    // is zero too (matrix/TRC profiles whose curves start at 0: Display P3, Adobe RGB...),
    // compensation changes nothing, and leaving the flag off skips lcms2's detection of the
    // target's black point, which builds round-trip transforms (measured: 20 ms of a 115 ms
    // thumbnail).
    int compensate = bpc;
    if (compensate && intent != INTENT_ABSOLUTE_COLORIMETRIC) {
        cmsCIEXYZ black;
        if (cmsDetectBlackPoint(&black, source, (cmsUInt32Number)intent, 0) && black.X == 0 && black.Y == 0 && black.Z == 0)
            compensate = 0;
    }
    int alpha = T_EXTRA(in_format) > 0;
    cmsUInt32Number flags = (compensate ? cmsFLAGS_BLACKPOINTCOMPENSATION : 0) | (alpha ? cmsFLAGS_COPY_ALPHA : 0) |
                            (cacheable ? cmsFLAGS_NOCACHE : 0) | extra;
    cmsHTRANSFORM transform = cmsCreateTransform(source, in_format, target, out_format, (cmsUInt32Number)intent, flags);
    cmsCloseProfile(source);
    cmsCloseProfile(target);
    if (transform == NULL) {
        fz_color_say(message, "lcms2 cannot make the transform");
        return FZ_ERROR;
    }
    fz_color_transform *t = calloc(1, sizeof *t);
    uint8_t *copy = cacheable ? malloc(length ? length : 1) : NULL;
    if (t == NULL || (cacheable && copy == NULL)) {
        cmsDeleteTransform(transform);
        free(t);
        free(copy);
        snprintf(message, FZ_MESSAGE_MAX, "out of memory");
        return FZ_ERROR;
    }
    t->transform = transform;
    if (cacheable) {
        memcpy(copy, icc, length);
        pthread_mutex_lock(&fz_color_cache_lock);
        if (fz_color_cache_count < FZ_COLOR_CACHE_ENTRIES) {
            t->cached = 1;
            fz_color_cache[fz_color_cache_count++] =
                (fz_color_cache_entry){copy, length, in_format, out_format, intent, bpc, extra, t};
            copy = NULL;
        }
        pthread_mutex_unlock(&fz_color_cache_lock);
        free(copy);
    }
    *out = t;
    return FZ_OK;
}

/// RGB or gray pixels (`channels` 1-4) at 8 or 16 (big-endian) bits to sRGB.
static int fz_color_pixels_to_srgb(const uint8_t *icc, size_t length, int channels, int sixteen, int intent, int bpc,
                                   fz_color_transform **out, char *message) {
    static const cmsUInt32Number eight_bit[4] = {TYPE_GRAY_8, TYPE_GRAYA_8, TYPE_RGB_8, TYPE_RGBA_8};
    static const cmsUInt32Number sixteen_bit[4] = {TYPE_GRAY_16_SE, TYPE_GRAYA_16_SE, TYPE_RGB_16_SE, TYPE_RGBA_16_SE};
    int k = channels < 1 ? 0 : channels > 4 ? 3 : channels - 1;
    cmsUInt32Number format = sixteen ? sixteen_bit[k] : eight_bit[k];
    int gray = channels <= 2;
    return fz_color_make(icc, length, gray ? cmsSigGrayData : cmsSigRgbData, format, format, gray, intent, bpc, 0,
                         out, message);
}

int fz_color_to_srgb_create(const uint8_t *icc, size_t length, int channels, int intent, int bpc,
                            fz_color_transform **out, char *message) {
    return fz_color_pixels_to_srgb(icc, length, channels, 0, intent, bpc, out, message);
}

int fz_color_to_srgb16_create(const uint8_t *icc, size_t length, int channels, int intent, int bpc,
                              fz_color_transform **out, char *message) {
    return fz_color_pixels_to_srgb(icc, length, channels, 1, intent, bpc, out, message);
}

int fz_color_cmyk_to_srgb_create(const uint8_t *icc, size_t length, int inverted, int intent, int bpc,
                                 fz_color_transform **out, char *message) {
    return fz_color_make(icc, length, cmsSigCmykData, inverted ? TYPE_CMYK_8_REV : TYPE_CMYK_8, TYPE_RGB_8, 0, intent,
                         bpc, 0, out, message);
}

int fz_color_cmyk_to_srgb_exact_create(const uint8_t *icc, size_t length, int intent, int bpc,
                                       fz_color_transform **out, char *message) {
    // cmsFLAGS_NOOPTIMIZE: every pixel through the profile's own stages (its curves, its
    // CLUT, Lab to sRGB), not through the 17-point CMYK grid lcms2 otherwise resamples the
    // whole chain into, whose interpolation is off by up to 20 levels on saturated inks.
    return fz_color_make(icc, length, cmsSigCmykData, TYPE_CMYK_8, TYPE_RGB_8, 0, intent, bpc, cmsFLAGS_NOOPTIMIZE, out,
                         message);
}

int fz_color_from_srgb_create(const uint8_t *icc, size_t length, int channels, int intent, fz_color_transform **out,
                              char *message) {
    *out = NULL;
    message[0] = '\0';
    cmsHPROFILE target = fz_color_open(icc, length, message);
    if (target == NULL) return FZ_ERROR;
    if (cmsGetColorSpace(target) != cmsSigRgbData) {
        cmsCloseProfile(target);
        snprintf(message, FZ_MESSAGE_MAX, "the profile is not an RGB profile");
        return FZ_ERROR;
    }
    cmsHPROFILE source = cmsCreate_sRGBProfile();
    cmsUInt32Number format = channels == 4 ? TYPE_RGBA_8 : TYPE_RGB_8;
    cmsUInt32Number flags = cmsFLAGS_NOCACHE | (channels == 4 ? cmsFLAGS_COPY_ALPHA : 0);
    cmsHTRANSFORM transform =
        source ? cmsCreateTransform(source, format, target, format, (cmsUInt32Number)intent, flags) : NULL;
    if (source) cmsCloseProfile(source);
    cmsCloseProfile(target);
    fz_color_transform *t = transform ? calloc(1, sizeof *t) : NULL;
    if (t == NULL) {
        if (transform) cmsDeleteTransform(transform);
        fz_color_say(message, "lcms2 cannot make the transform");
        return FZ_ERROR;
    }
    t->transform = transform;
    *out = t;
    return FZ_OK;
}

int fz_color_profile_readable(const uint8_t *icc, size_t length, char *message) {
    message[0] = '\0';
    cmsHPROFILE p = fz_color_open(icc, length, message);
    if (p == NULL) return FZ_ERROR;
    // The tags a transform from it would read: a LUT (A2B0), or the matrix and tone curves.
    static const cmsTagSignature rgb[] = {cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag,
                                          cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag};
    static const cmsTagSignature gray[] = {cmsSigGrayTRCTag};
    const cmsTagSignature *needed = NULL;
    int count = 0;
    cmsColorSpaceSignature space = cmsGetColorSpace(p);
    if (cmsIsTag(p, cmsSigAToB0Tag)) {
        static const cmsTagSignature lut[] = {cmsSigAToB0Tag};
        needed = lut;
        count = 1;
    } else if (space == cmsSigRgbData) {
        needed = rgb;
        count = 6;
    } else if (space == cmsSigGrayData) {
        needed = gray;
        count = 1;
    } else if (space == cmsSigCmykData) {
        static const cmsTagSignature lut[] = {cmsSigAToB0Tag};  // a CMYK profile is a LUT
        needed = lut;
        count = 1;
    }
    int ok = 1;
    for (int i = 0; i < count && ok; i++) {
        if (cmsReadTag(p, needed[i]) == NULL) {
            ok = 0;
            char sig[5] = {(char)(needed[i] >> 24), (char)(needed[i] >> 16), (char)(needed[i] >> 8), (char)needed[i], 0};
            snprintf(message, FZ_MESSAGE_MAX, "its %s tag is missing or unreadable", sig);
        }
    }
    cmsCloseProfile(p);
    return ok ? FZ_OK : FZ_ERROR;
}

void fz_color_apply(const fz_color_transform *t, const uint8_t *src, uint8_t *dst, size_t pixels) {
    cmsDoTransform(t->transform, src, dst, (cmsUInt32Number)pixels);
}

void fz_color_free(fz_color_transform *t) {
    if (t == NULL || t->cached) return;
    cmsDeleteTransform(t->transform);
    free(t);
}

int fz_color_profile_from_chunks(double gamma, const double *chrm, int gray, uint8_t **out, size_t *length,
                                 char *message) {
    *out = NULL;
    *length = 0;
    message[0] = '\0';
    fz_lcms_message[0] = '\0';
    cmsSetLogErrorHandler(fz_lcms_log);
    cmsToneCurve *curve = gamma > 0 ? cmsBuildGamma(NULL, 1.0 / gamma) : fz_srgb_curve();
    if (curve == NULL) {
        fz_color_say(message, "lcms2 cannot make the tone curve");
        return FZ_ERROR;
    }
    cmsCIExyY white = {0.3127, 0.3290, 1.0};
    cmsCIExyYTRIPLE primaries = {{0.64, 0.33, 1.0}, {0.30, 0.60, 1.0}, {0.15, 0.06, 1.0}};
    if (chrm != NULL) {
        white = (cmsCIExyY){chrm[0], chrm[1], 1.0};
        primaries = (cmsCIExyYTRIPLE){{chrm[2], chrm[3], 1.0}, {chrm[4], chrm[5], 1.0}, {chrm[6], chrm[7], 1.0}};
    }
    cmsHPROFILE profile;
    if (gray) {
        profile = cmsCreateGrayProfile(&white, curve);
    } else {
        cmsToneCurve *curves[3] = {curve, curve, curve};
        profile = cmsCreateRGBProfile(&white, &primaries, curves);
    }
    cmsFreeToneCurve(curve);
    if (profile == NULL) {
        fz_color_say(message, "lcms2 cannot make a profile of these chromaticities");
        return FZ_ERROR;
    }
    cmsUInt32Number size = 0;
    uint8_t *bytes = NULL;
    if (cmsSaveProfileToMem(profile, NULL, &size) && size > 0 && (bytes = malloc(size)) != NULL &&
        cmsSaveProfileToMem(profile, bytes, &size)) {
        cmsCloseProfile(profile);
        *out = bytes;
        *length = size;
        return FZ_OK;
    }
    free(bytes);
    cmsCloseProfile(profile);
    fz_color_say(message, "lcms2 cannot write the profile");
    return FZ_ERROR;
}

// ---------------------------------------------------------------------------------------
// Linear light for the HDR rendition of a gain map (issue 39). Float transforms, never
// cached (made once per output). lcms2 does not resample float pipelines into 16-bit tables:
// its optimiser drops the linear curves and joins the matrices, and the rest is evaluated in
// float, unbounded (cmsFLAGS_NOOPTIMIZE gave the same samples and took 3x the time, mostly
// pow(x, 1.0) for the linear curves).
// ---------------------------------------------------------------------------------------

/// An RGB (or gray) profile with linear tone curves: BT.2020's primaries and D65 white
/// (ITU-R BT.2020), or gray with a D50 white (a gray profile has only a tone curve).
static cmsHPROFILE fz_color_linear_profile(int gray) {
    cmsToneCurve *linear = cmsBuildGamma(NULL, 1.0);
    if (linear == NULL) return NULL;
    cmsHPROFILE p;
    if (gray) {
        p = cmsCreateGrayProfile(cmsD50_xyY(), linear);
    } else {
        cmsCIExyY white = {0.3127, 0.3290, 1.0};
        cmsCIExyYTRIPLE bt2020 = {{0.708, 0.292, 1.0}, {0.170, 0.797, 1.0}, {0.131, 0.046, 1.0}};
        cmsToneCurve *curves[3] = {linear, linear, linear};
        p = cmsCreateRGBProfile(&white, &bt2020, curves);
    }
    cmsFreeToneCurve(linear);
    return p;
}

/// The profile of 8-bit pixels: `icc`, or sRGB (sRGB-curved gray) when NULL.
static cmsHPROFILE fz_color_source_profile(const uint8_t *icc, size_t length, int gray, char *message) {
    if (icc != NULL) return fz_color_open(icc, length, message);
    if (!gray) return cmsCreate_sRGBProfile();
    cmsToneCurve *curve = fz_srgb_curve();
    cmsHPROFILE p = curve ? cmsCreateGrayProfile(cmsD50_xyY(), curve) : NULL;
    if (curve) cmsFreeToneCurve(curve);
    return p;
}

/// Whether lcms2 reads `p` as a matrix and tone curves (no LUT takes precedence for input).
static int fz_color_is_shaper(cmsHPROFILE p) {
    return cmsIsMatrixShaper(p) && !cmsIsTag(p, cmsSigAToB0Tag) && !cmsIsTag(p, cmsSigAToB1Tag) &&
           !cmsIsTag(p, cmsSigDToB0Tag) && !cmsIsTag(p, cmsSigDToB1Tag);
}

/// The same RGB matrix/TRC profile with its tone curves made linear: its own primaries, linear light.
static int fz_color_linearise(cmsHPROFILE p) {
    cmsToneCurve *linear = cmsBuildGamma(NULL, 1.0);
    if (linear == NULL) return 0;
    int ok = cmsWriteTag(p, cmsSigRedTRCTag, linear) && cmsWriteTag(p, cmsSigGreenTRCTag, linear) &&
             cmsWriteTag(p, cmsSigBlueTRCTag, linear);
    cmsFreeToneCurve(linear);
    return ok;
}

/// Wraps a float transform from `source` to `target` (both closed here).
static int fz_color_float_transform(cmsHPROFILE source, cmsHPROFILE target, int gray, fz_color_transform **out,
                                    char *message) {
    cmsUInt32Number format = gray ? TYPE_GRAY_FLT : TYPE_RGB_FLT;
    cmsHTRANSFORM transform = NULL;
    if (source != NULL && target != NULL)
        transform = cmsCreateTransform(source, format, target, format, INTENT_RELATIVE_COLORIMETRIC,
                                       cmsFLAGS_NOCACHE);
    if (source) cmsCloseProfile(source);
    if (target) cmsCloseProfile(target);
    fz_color_transform *t = transform ? calloc(1, sizeof *t) : NULL;
    if (t == NULL) {
        if (transform) cmsDeleteTransform(transform);
        fz_color_say(message, "lcms2 cannot make the linear-light transform");
        return FZ_ERROR;
    }
    t->transform = transform;
    *out = t;
    return FZ_OK;
}

int fz_color_linear_create(const uint8_t *icc, size_t length, int channels, fz_color_transform **out,
                           int *own_primaries, char *message) {
    *out = NULL;
    *own_primaries = 1;
    message[0] = '\0';
    fz_lcms_message[0] = '\0';
    cmsSetLogErrorHandler(fz_lcms_log);
    int gray = channels <= 2;
    cmsHPROFILE source = fz_color_source_profile(icc, length, gray, message);
    if (source == NULL) {
        if (message[0] == '\0') fz_color_say(message, "lcms2 cannot make the sRGB profile");
        return FZ_ERROR;
    }
    if (cmsGetColorSpace(source) != (gray ? cmsSigGrayData : cmsSigRgbData)) {
        cmsCloseProfile(source);
        snprintf(message, FZ_MESSAGE_MAX, "the profile's colour space does not match the pixels");
        return FZ_ERROR;
    }
    cmsHPROFILE target = NULL;
    if (gray) {
        target = fz_color_linear_profile(1);
    } else if (fz_color_is_shaper(source)) {
        // The same profile opened again, its curves made linear: the gain applies in the
        // base's own primaries, as the gain-map specifications say.
        target = fz_color_source_profile(icc, length, 0, message);
        if (target != NULL && !fz_color_linearise(target)) {
            cmsCloseProfile(target);
            target = NULL;
        }
    } else {
        *own_primaries = 0;
        target = fz_color_linear_profile(0);
    }
    return fz_color_float_transform(source, target, gray, out, message);
}

int fz_color_linear_to_bt2020_create(const uint8_t *icc, size_t length, fz_color_transform **out, char *message) {
    *out = NULL;
    message[0] = '\0';
    fz_lcms_message[0] = '\0';
    cmsSetLogErrorHandler(fz_lcms_log);
    cmsHPROFILE source = fz_color_source_profile(icc, length, 0, message);
    if (source != NULL && (cmsGetColorSpace(source) != cmsSigRgbData || !fz_color_is_shaper(source))) {
        cmsCloseProfile(source);
        snprintf(message, FZ_MESSAGE_MAX, "not an RGB matrix/TRC profile");
        return FZ_ERROR;
    }
    if (source != NULL && !fz_color_linearise(source)) {
        cmsCloseProfile(source);
        source = NULL;
    }
    return fz_color_float_transform(source, fz_color_linear_profile(0), 0, out, message);
}

void fz_color_apply_between(const fz_color_transform *t, const void *src, void *dst, size_t pixels) {
    cmsDoTransform(t->transform, src, dst, (cmsUInt32Number)pixels);
}
