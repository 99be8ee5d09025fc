// PNG row unfiltering (PNG spec, section 9): a byte-at-a-time reference, and the fast path
// the reader uses. Sub, Average and Paeth depend on the pixel to the left, so they cannot
// run wider than one pixel; the fast path works a whole pixel (3-8 bytes) at once in SSE2's
// 16-bit lanes for Paeth (branch-free) and Average, where libpng's C code goes byte by byte.
// Up has no such dependency and is left to the compiler's vectoriser; Sub's byte loop is
// already as fast.
#include "fz_png_read.h"

#include <stdlib.h>
#include <string.h>

#include "fz_common.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline uint8_t fz_paeth(int a, int b, int c) {
    int p = a + b - c;
    int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    if (pb <= pc) return (uint8_t)b;
    return (uint8_t)c;
}

int fz_png_unfilter_reference(uint8_t *row, const uint8_t *prev, size_t length, int bpp, int filter) {
    size_t n = length, k = (size_t)bpp;
    switch (filter) {
    case 0: return FZ_OK;
    case 1:
        for (size_t i = k; i < n; i++) row[i] = (uint8_t)(row[i] + row[i - k]);
        return FZ_OK;
    case 2:
        for (size_t i = 0; i < n; i++) row[i] = (uint8_t)(row[i] + prev[i]);
        return FZ_OK;
    case 3:
        for (size_t i = 0; i < n; i++) {
            int a = i >= k ? row[i - k] : 0;
            row[i] = (uint8_t)(row[i] + ((a + prev[i]) >> 1));
        }
        return FZ_OK;
    case 4:
        for (size_t i = 0; i < n; i++) {
            int a = i >= k ? row[i - k] : 0, c = i >= k ? prev[i - k] : 0;
            row[i] = (uint8_t)(row[i] + fz_paeth(a, prev[i], c));
        }
        return FZ_OK;
    default: return FZ_ERROR;
    }
}

#if defined(__SSE2__)
// One pixel of `bpp` bytes (a constant after inlining) in and out of the low lanes. 3 and 6
// bytes are put together in a register: a memcpy of 3 bytes into a wider variable goes
// through the stack, and the wide reload of narrow stores stalls (store forwarding).
static inline __attribute__((always_inline)) __m128i fz_load_px(const uint8_t *p, int bpp) {
    uint64_t v = 0;
    if (bpp == 4 || bpp == 8) {
        memcpy(&v, p, (size_t)bpp);
    } else {
        for (int k = 0; k < bpp; k++) v |= (uint64_t)p[k] << (8 * k);
    }
    return _mm_unpacklo_epi8(_mm_cvtsi64_si128((long long)v), _mm_setzero_si128());
}

static inline __attribute__((always_inline)) void fz_store_px(uint8_t *p, __m128i x, int bpp) {
    uint64_t v = (uint64_t)_mm_cvtsi128_si64(_mm_packus_epi16(x, x));
    if (bpp == 4 || bpp == 8) {
        memcpy(p, &v, (size_t)bpp);
    } else {
        for (int k = 0; k < bpp; k++) p[k] = (uint8_t)(v >> (8 * k));
    }
}

static inline __attribute__((always_inline)) __m128i fz_abs16(__m128i x) {
    __m128i neg = _mm_sub_epi16(_mm_setzero_si128(), x);
    return _mm_max_epi16(x, neg);
}

// Paeth a pixel at a time: pa = |b - c|, pb = |a - c|, pc = |a + b - 2c|, then the first
// of a, b, c whose distance is the smallest, chosen with masks instead of branches.
static inline __attribute__((always_inline)) void fz_paeth_sse2(uint8_t *row, const uint8_t *prev, size_t n,
                                                                int bpp) {
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128(), mask = _mm_set1_epi16(0xff);
    for (size_t i = 0; i < n; i += (size_t)bpp) {
        __m128i b = fz_load_px(prev + i, bpp), x = fz_load_px(row + i, bpp);
        __m128i pa = _mm_sub_epi16(b, c), pb = _mm_sub_epi16(a, c);
        __m128i pc = fz_abs16(_mm_add_epi16(pa, pb));
        pa = fz_abs16(pa);
        pb = fz_abs16(pb);
        __m128i smallest = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
        __m128i use_a = _mm_cmpeq_epi16(smallest, pa);
        __m128i use_b = _mm_andnot_si128(use_a, _mm_cmpeq_epi16(smallest, pb));
        __m128i use_c = _mm_andnot_si128(_mm_or_si128(use_a, use_b), _mm_set1_epi16(-1));
        __m128i pred = _mm_or_si128(_mm_or_si128(_mm_and_si128(use_a, a), _mm_and_si128(use_b, b)),
                                    _mm_and_si128(use_c, c));
        x = _mm_and_si128(_mm_add_epi16(x, pred), mask);
        fz_store_px(row + i, x, bpp);
        a = x;
        c = b;
    }
}

static inline __attribute__((always_inline)) void fz_avg_sse2(uint8_t *row, const uint8_t *prev, size_t n,
                                                              int bpp) {
    __m128i a = _mm_setzero_si128(), mask = _mm_set1_epi16(0xff);
    for (size_t i = 0; i < n; i += (size_t)bpp) {
        __m128i b = fz_load_px(prev + i, bpp), x = fz_load_px(row + i, bpp);
        x = _mm_and_si128(_mm_add_epi16(x, _mm_srli_epi16(_mm_add_epi16(a, b), 1)), mask);
        fz_store_px(row + i, x, bpp);
        a = x;
    }
}

// Each filter specialised for one constant pixel size, so loads and stores are fixed-size.
#define FZ_UNFILTER_BPP(K)                                                                   \
    static void fz_unfilter_##K(uint8_t *row, const uint8_t *prev, size_t n, int filter) {  \
        if (filter == 3) fz_avg_sse2(row, prev, n, K);                                       \
        else fz_paeth_sse2(row, prev, n, K);                                                 \
    }
FZ_UNFILTER_BPP(3)
FZ_UNFILTER_BPP(4)
FZ_UNFILTER_BPP(6)
FZ_UNFILTER_BPP(8)
#endif

int fz_png_unfilter(uint8_t *row, const uint8_t *prev, size_t length, int bpp, int filter) {
    if (filter == 2) {
        for (size_t i = 0; i < length; i++) row[i] = (uint8_t)(row[i] + prev[i]);
        return FZ_OK;
    }
#if defined(__SSE2__)
    // Whole pixels only: a row is always a multiple of bpp bytes when bpp > 1. Sub stays
    // scalar: measured, the compiler's byte loop is as fast (one add a byte).
    if ((filter == 3 || filter == 4) && length % (size_t)bpp == 0) {
        switch (bpp) {
        case 3: fz_unfilter_3(row, prev, length, filter); return FZ_OK;
        case 4: fz_unfilter_4(row, prev, length, filter); return FZ_OK;
        case 6: fz_unfilter_6(row, prev, length, filter); return FZ_OK;
        case 8: fz_unfilter_8(row, prev, length, filter); return FZ_OK;
        default: break;
        }
    }
#endif
    return fz_png_unfilter_reference(row, prev, length, bpp, filter);
}
