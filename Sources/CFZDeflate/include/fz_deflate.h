// fz_deflate.h: the parallel PNG encoder's filtering and banded deflate (fz_deflate.c,
// fz_rle_deflate.c); zlib only.
#ifndef FZ_DEFLATE_H
#define FZ_DEFLATE_H

#include <stddef.h>
#include <stdint.h>

#include "fz_common.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---------------------------------------------------------------------------------------
// The parallel PNG encoder's pure parts (fz_deflate.c; zlib only, nothing longjmps): rows
// filtered as PNG filter bytes + filtered bytes, then bands of them deflated independently,
// each as raw deflate ended by a sync flush (the last by finish), with the 32 KiB before
// the band as its dictionary. Concatenated behind a zlib header and followed by the Adler-32
// of the whole (zlib's adler32_combine), they are one zlib stream: pigz's technique.
// ---------------------------------------------------------------------------------------

/// Filters `count` rows (`row_bytes` each, `stride` apart) into `out` (count * (row_bytes + 1)
/// bytes). `filter`: 0-4 one PNG filter type for every row, 5 adaptive (libpng's heuristic:
/// the least sum of signed magnitudes). `previous` is the row above the first (NULL: zeros).
/// `scratch` holds 6 * row_bytes bytes, the last row_bytes of them zero.
void fz_png_filter_rows(const uint8_t *rows, size_t stride, const uint8_t *previous, uint32_t count,
                        size_t row_bytes, int bpp, int filter, uint8_t *out, uint8_t *scratch);
/// Deflates one band (raw deflate, `level`/`strategy` as zlib's) into a malloc'd buffer the
/// caller frees with fz_free. FZ_ERROR on zlib failure or no memory. Z_RLE (strategy 3) at
/// levels 1-9 goes through fz_rle_deflate, which reads only the dictionary's last byte.
int fz_deflate_band(const uint8_t *data, size_t length, const uint8_t *dictionary, size_t dictionary_length,
                    int level, int strategy, int last, uint8_t **out, size_t *out_length);
void fz_free(void *pointer);
/// Raw deflate of `data` as zlib's Z_RLE strategy codes it (literals and runs at distance
/// 1, dynamic Huffman blocks), but faster (fz_rle_deflate.c). `previous` is the byte before
/// the data (-1: none). Not `last`: ends with a sync flush's empty stored block, on a byte
/// boundary, so another band's stream can follow; `last`: the final block. `out` holds
/// fz_rle_deflate_bound(length) bytes. FZ_ERROR when out of memory.
size_t fz_rle_deflate_bound(size_t length);
int fz_rle_deflate(const uint8_t *data, size_t length, int previous, int last, uint8_t *out, size_t *out_length);

#ifdef __cplusplus
}
#endif
#endif
