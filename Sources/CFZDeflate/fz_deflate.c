// PNG row filtering and banded deflate for the parallel PNG encoder: see fz_deflate.h.
// Pure C over zlib: nothing here can longjmp.
#include "fz_deflate.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static inline uint8_t fz_paeth(int a, int b, int c) {
    int p = a + b - c;
    int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    return (uint8_t)(pb <= pc ? b : c);
}

// Writes row `cur` filtered with `type` (0-4) into `out` (row_bytes bytes, no type byte).
static void fz_filter_one(int type, const uint8_t *cur, const uint8_t *prev, size_t row_bytes, int bpp, uint8_t *out) {
    size_t i;
    switch (type) {
    case 0: memcpy(out, cur, row_bytes); break;
    case 1:
        for (i = 0; i < row_bytes && i < (size_t)bpp; i++) out[i] = cur[i];
        for (; i < row_bytes; i++) out[i] = (uint8_t)(cur[i] - cur[i - bpp]);
        break;
    case 2:
        for (i = 0; i < row_bytes; i++) out[i] = (uint8_t)(cur[i] - prev[i]);
        break;
    case 3:
        for (i = 0; i < row_bytes && i < (size_t)bpp; i++) out[i] = (uint8_t)(cur[i] - (prev[i] >> 1));
        for (; i < row_bytes; i++) out[i] = (uint8_t)(cur[i] - ((cur[i - bpp] + prev[i]) >> 1));
        break;
    default:
        for (i = 0; i < row_bytes && i < (size_t)bpp; i++) out[i] = (uint8_t)(cur[i] - fz_paeth(0, prev[i], 0));
        for (; i < row_bytes; i++) out[i] = (uint8_t)(cur[i] - fz_paeth(cur[i - bpp], prev[i], prev[i - bpp]));
        break;
    }
}

// libpng's heuristic: the sum of the filtered bytes read as signed magnitudes.
static uint64_t fz_filter_cost(const uint8_t *row, size_t row_bytes) {
    uint64_t sum = 0;
    for (size_t i = 0; i < row_bytes; i++) sum += row[i] < 128 ? row[i] : 256 - row[i];
    return sum;
}

void fz_png_filter_rows(const uint8_t *rows, size_t stride, const uint8_t *previous, uint32_t count,
                        size_t row_bytes, int bpp, int filter, uint8_t *out, uint8_t *scratch) {
    const uint8_t *prev = previous;
    for (uint32_t y = 0; y < count; y++) {
        const uint8_t *cur = rows + (size_t)y * stride;
        uint8_t *dst = out + (size_t)y * (row_bytes + 1);
        const uint8_t *above = prev ? prev : scratch + 5 * row_bytes;  // zeros for the first row
        int type = filter;
        if (filter > 4) {
            // Adaptive: try all five, keep the cheapest (ties go to the lower type).
            uint64_t best = UINT64_MAX;
            for (int t = 0; t < 5; t++) {
                fz_filter_one(t, cur, above, row_bytes, bpp, scratch + (size_t)t * row_bytes);
                uint64_t cost = fz_filter_cost(scratch + (size_t)t * row_bytes, row_bytes);
                if (cost < best) { best = cost; type = t; }
            }
            dst[0] = (uint8_t)type;
            memcpy(dst + 1, scratch + (size_t)type * row_bytes, row_bytes);
        } else {
            dst[0] = (uint8_t)type;
            fz_filter_one(type, cur, above, row_bytes, bpp, dst + 1);
        }
        prev = cur;
    }
}

int fz_deflate_band(const uint8_t *data, size_t length, const uint8_t *dictionary, size_t dictionary_length,
                    int level, int strategy, int last, uint8_t **out, size_t *out_length) {
    *out = NULL;
    *out_length = 0;
    if (strategy == Z_RLE && level > 0) {
        // Z_RLE's stream from the faster coder; it needs only the last byte before the band.
        uint8_t *buffer = malloc(fz_rle_deflate_bound(length));
        if (buffer == NULL) return FZ_ERROR;
        int previous = dictionary_length > 0 ? dictionary[dictionary_length - 1] : -1;
        if (fz_rle_deflate(data, length, previous, last, buffer, out_length) != FZ_OK) {
            free(buffer);
            return FZ_ERROR;
        }
        *out = buffer;
        return FZ_OK;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, strategy) != Z_OK) return FZ_ERROR;
    // zlib keeps only the last window's worth of a dictionary: hand it just that.
    if (dictionary_length > 32768) {
        dictionary += dictionary_length - 32768;
        dictionary_length = 32768;
    }
    if (dictionary_length > 0 && deflateSetDictionary(&z, dictionary, (uInt)dictionary_length) != Z_OK) {
        deflateEnd(&z);
        return FZ_ERROR;
    }
    size_t capacity = deflateBound(&z, (uLong)length) + 16;
    uint8_t *buffer = malloc(capacity);
    if (buffer == NULL) {
        deflateEnd(&z);
        return FZ_ERROR;
    }
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)length;
    z.next_out = buffer;
    z.avail_out = (uInt)capacity;
    // A sync flush ends the band on a byte boundary with an empty stored block, so the next
    // band's raw stream can follow it directly; the last band finishes the stream.
    int status = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
    int ok = last ? status == Z_STREAM_END : status == Z_OK && z.avail_in == 0;
    size_t produced = capacity - z.avail_out;
    deflateEnd(&z);
    if (!ok) {
        free(buffer);
        return FZ_ERROR;
    }
    *out = buffer;
    *out_length = produced;
    return FZ_OK;
}

void fz_free(void *pointer) { free(pointer); }
