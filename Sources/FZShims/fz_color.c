// fz_color.c: colour conversion to sRGB with lcms2. lcms2 never longjmps, but it reports
// errors through a log handler instead of return values alone: the handler here copies the
// message into a per-thread buffer that the create call hands back, so Swift gets a status
// and a message like every other shim.
#include "fz_shims.h"
#include <lcms2.h>
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
};

/// sRGB's tone curve (IEC 61966-2-1), for gray output.
static cmsToneCurve *fz_srgb_curve(void) {
    cmsFloat64Number p[5] = {2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045};
    return cmsBuildParametricToneCurve(NULL, 4, p);
}

int fz_color_to_srgb_create(const uint8_t *icc, size_t length, int channels, int intent, int bpc,
                            fz_color_transform **out, char *message) {
    *out = NULL;
    fz_lcms_message[0] = '\0';
    cmsSetLogErrorHandler(fz_lcms_log);
    cmsHPROFILE source = cmsOpenProfileFromMem(icc, (cmsUInt32Number)length);
    if (source == NULL) {
        strncpy(message, fz_lcms_message[0] ? fz_lcms_message : "lcms2 cannot read the profile", FZ_MESSAGE_MAX - 1);
        return FZ_ERROR;
    }
    int gray = channels <= 2;
    cmsColorSpaceSignature space = cmsGetColorSpace(source);
    if ((gray && space != cmsSigGrayData) || (!gray && space != cmsSigRgbData)) {
        cmsCloseProfile(source);
        strncpy(message, "the profile's colour space does not match the pixels", FZ_MESSAGE_MAX - 1);
        return FZ_ERROR;
    }
    cmsHPROFILE target;
    if (gray) {
        cmsToneCurve *curve = fz_srgb_curve();
        target = curve ? cmsCreateGrayProfile(cmsD50_xyY(), curve) : NULL;
        if (curve) cmsFreeToneCurve(curve);
    } else {
        target = cmsCreate_sRGBProfile();
    }
    if (target == NULL) {
        cmsCloseProfile(source);
        strncpy(message, "lcms2 cannot make the sRGB profile", FZ_MESSAGE_MAX - 1);
        return FZ_ERROR;
    }
    cmsUInt32Number format;
    switch (channels) {
    case 1: format = TYPE_GRAY_8; break;
    case 2: format = TYPE_GRAYA_8; break;
    case 3: format = TYPE_RGB_8; break;
    default: format = TYPE_RGBA_8; break;
    }
    cmsUInt32Number flags = (bpc ? cmsFLAGS_BLACKPOINTCOMPENSATION : 0) | (channels == 2 || channels == 4 ? cmsFLAGS_COPY_ALPHA : 0);
    cmsHTRANSFORM transform = cmsCreateTransform(source, format, target, format, (cmsUInt32Number)intent, flags);
    cmsCloseProfile(source);
    cmsCloseProfile(target);
    if (transform == NULL) {
        strncpy(message, fz_lcms_message[0] ? fz_lcms_message : "lcms2 cannot make the transform", FZ_MESSAGE_MAX - 1);
        return FZ_ERROR;
    }
    fz_color_transform *t = calloc(1, sizeof *t);
    if (t == NULL) {
        cmsDeleteTransform(transform);
        strncpy(message, "out of memory", FZ_MESSAGE_MAX - 1);
        return FZ_ERROR;
    }
    t->transform = transform;
    *out = t;
    return FZ_OK;
}

void fz_color_apply(const fz_color_transform *t, const uint8_t *src, uint8_t *dst, size_t pixels) {
    cmsDoTransform(t->transform, src, dst, (cmsUInt32Number)pixels);
}

void fz_color_free(fz_color_transform *t) {
    if (t == NULL) return;
    cmsDeleteTransform(t->transform);
    free(t);
}
