// fz_color.h: colour conversion with lcms2 (fz_color.c).
#ifndef FZ_COLOR_H
#define FZ_COLOR_H

#include <stddef.h>
#include <stdint.h>

#include "fz_common.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---------------------------------------------------------------------------------------
// Colour conversion to sRGB with lcms2 (fz_color.c): `--icc srgb`.
// ---------------------------------------------------------------------------------------
typedef struct fz_color_transform fz_color_transform;
/// A transform from the pixels an ICC profile describes (`channels`: 1 gray, 2 gray+alpha,
/// 3 RGB, 4 RGBA, 8 bits) to sRGB (gray: gray with sRGB's tone curve), alpha copied.
/// `intent`: 0 perceptual, 1 relative colorimetric, 2 saturation, 3 absolute colorimetric;
/// `bpc`: black-point compensation. FZ_ERROR with `message` (FZ_MESSAGE_MAX bytes) filled
/// when lcms2 cannot read the profile or it does not describe such pixels.
/// Why here: lcms2 reports errors through a log handler, kept in C.
int fz_color_to_srgb_create(const uint8_t *icc, size_t length, int channels, int intent, int bpc,
                            fz_color_transform **out, char *message);
/// The same at 16 bits a sample, big-endian as PNG stores them (`Image16`).
int fz_color_to_srgb16_create(const uint8_t *icc, size_t length, int channels, int intent, int bpc,
                              fz_color_transform **out, char *message);
/// The same from Adobe CMYK (`inverted`: 0 = full ink, as Photoshop writes it) or plain
/// CMYK (4 bytes a pixel) to 8-bit sRGB (3 bytes), through a CMYK profile.
int fz_color_cmyk_to_srgb_create(const uint8_t *icc, size_t length, int inverted, int intent, int bpc,
                                 fz_color_transform **out, char *message);
/// The same from plain CMYK, each pixel evaluated through the profile's own stages
/// (cmsFLAGS_NOOPTIMIZE): within a level of ImageMagick's 16-bit reading through the same
/// profile where the resampled transform above is off by up to 20, at about 4x its cost
/// (0.3 us a pixel). CMYK TIFFs use it (see fz_tiff_use_cmyk_profile).
int fz_color_cmyk_to_srgb_exact_create(const uint8_t *icc, size_t length, int intent, int bpc,
                                       fz_color_transform **out, char *message);
/// A transform from 8-bit sRGB into the space of an RGB profile: forcezoom's own drawn
/// colours (given in sRGB) on an image kept in its own space; `channels` 3 (RGB) or 4 (RGBA,
/// alpha copied). Not cached; free it.
int fz_color_from_srgb_create(const uint8_t *icc, size_t length, int channels, int intent, fz_color_transform **out,
                              char *message);
/// FZ_OK when lcms2 can read the profile and the tags a transform from it would use (its
/// LUT, or its colorants and tone curves; a CMYK profile's LUT): what `--icc keep` checks
/// before copying a profile and `--cmyk-profile` before using one, without the cost of
/// building a transform. Otherwise the reason in `message`.
int fz_color_profile_readable(const uint8_t *icc, size_t length, char *message);

/// An ICC profile (matrix/TRC for RGB, a TRC for gray) made from PNG's colour chunks, as
/// the PNG specification (third edition) and browsers read a file with gAMA and/or cHRM and
/// no iCCP or sRGB: tone curves x^(1/gamma) (`gamma` the gAMA value; 0: none, the sRGB curve),
/// primaries and white from `chrm` (white x,y, red, green, blue; NULL: sRGB's, D65).
/// On FZ_OK `*out` is a malloc'd profile of `*length` bytes (the caller frees it). Why a
/// shim: lcms2's calls report through a handler, and the profile is serialised by lcms2.
int fz_color_profile_from_chunks(double gamma, const double *chrm, int gray, uint8_t **out, size_t *length,
                                 char *message);
/// Converts `pixels` pixels from `src` to `dst` (may be the same buffer).
void fz_color_apply(const fz_color_transform *transform, const uint8_t *src, uint8_t *dst, size_t pixels);
void fz_color_free(fz_color_transform *transform);


// ---------------------------------------------------------------------------------------
// Linear light for the HDR rendition of a gain map (issue 39, `--gain-map apply`): 32-bit
// float samples (lcms2's TYPE_*_FLT, unbounded: values above 1 are kept).
// ---------------------------------------------------------------------------------------
/// A transform from 8-bit pixels (`channels` 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA; alpha
/// skipped) that `icc` describes (NULL: sRGB, or gray with sRGB's tone curve) to linear light,
/// floats: 1 a pixel for gray, 3 for RGB. `*own_primaries` is 1 when the output keeps the
/// profile's own primaries (a matrix/TRC profile: its tone curves replaced by linear ones),
/// 0 when the profile is a LUT, whose primaries are not stated: the output is then linear
/// BT.2020 already. Relative colorimetric, no black-point compensation. Free it.
int fz_color_linear_create(const uint8_t *icc, size_t length, int channels, fz_color_transform **out,
                           int *own_primaries, char *message);
/// A transform from linear RGB floats in the primaries of the matrix/TRC profile `icc`
/// (NULL: sRGB's, BT.709) to linear BT.2020 RGB floats (D65), unbounded. Free it.
int fz_color_linear_to_bt2020_create(const uint8_t *icc, size_t length, fz_color_transform **out, char *message);
/// Converts `pixels` pixels from `src` to `dst` (distinct buffers of the transform's formats).
void fz_color_apply_between(const fz_color_transform *transform, const void *src, void *dst, size_t pixels);

#ifdef __cplusplus
}
#endif
#endif
