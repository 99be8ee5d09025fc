// A fast raw-deflate encoder for what zlib's Z_RLE strategy does: literals and runs of the
// previous byte (matches at distance 1 only), coded with dynamic Huffman blocks. See
// fz_deflate.h. Pure C, no library calls that can fail other than malloc.
//
// Why not zlib: after PNG's sub or Paeth filter a photo is nearly all literals, and zlib
// 1.2's deflate_rle/compress_block spend most of their time on per-byte bookkeeping and a
// 16-bit bit buffer. This one tokenizes a block into a small array while counting symbol
// frequencies, builds length-limited canonical codes, and writes through a 64-bit bit
// buffer: about three times zlib's speed for the same kind of stream (sizes within about
// a percent of zlib's at levels 1-6, whose Z_RLE output does not depend on the level).
#include "fz_deflate.h"

#include <stdlib.h>
#include <string.h>

enum {
    FZ_RLE_BLOCK_TOKENS = 16384,  // tokens per block (zlib's symbol buffer at memLevel 8)
    FZ_RLE_MAX_BITS = 15,
    FZ_RLE_LITLEN = 286,
    FZ_RLE_MAX_MATCH = 258,
};

// Length 3..258 -> length code 257..285 and its extra bits (RFC 1951, 3.2.5).
static const uint16_t fz_len_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                         31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t fz_len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint8_t fz_clen_order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

typedef struct {
    uint8_t *out;
    uint64_t bits;
    int count;
} fz_bits;

static inline void fz_put(fz_bits *b, uint64_t value, int n) {
    b->bits |= value << b->count;
    b->count += n;
    if (b->count >= 32) {
        uint32_t w = (uint32_t)b->bits;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(b->out, &w, 4);
#else
        b->out[0] = (uint8_t)w;
        b->out[1] = (uint8_t)(w >> 8);
        b->out[2] = (uint8_t)(w >> 16);
        b->out[3] = (uint8_t)(w >> 24);
#endif
        b->out += 4;
        b->bits >>= 32;
        b->count -= 32;
    }
}

// Writes out the whole bytes left and pads the last one with zeros.
static void fz_align(fz_bits *b) {
    while (b->count > 0) {
        *b->out++ = (uint8_t)b->bits;
        b->bits >>= 8;
        b->count = b->count > 8 ? b->count - 8 : 0;
    }
    b->bits = 0;
}

// Code lengths (at most max_bits) for `n` symbols from their frequencies: a Huffman code,
// then lengths over the limit folded back as miniz does (Kraft sum restored by lengthening
// the shortest codes that can take it). Symbols with frequency 0 get length 0; at least two
// symbols get a code (a lone code would be an incomplete code to inflate).
static void fz_code_lengths(const uint32_t *freq, int n, int max_bits, uint8_t *lengths) {
    uint16_t sorted[FZ_RLE_LITLEN];
    uint32_t weight[2 * FZ_RLE_LITLEN];
    uint16_t parent[2 * FZ_RLE_LITLEN];
    uint8_t depth[2 * FZ_RLE_LITLEN];
    int used = 0;
    memset(lengths, 0, (size_t)n);
    for (int s = 0; s < n; s++)
        if (freq[s]) sorted[used++] = (uint16_t)s;
    if (used < 2) {
        // One symbol (or none): two codes of one bit, the second a symbol never sent.
        int a = used ? sorted[0] : 0;
        lengths[a] = 1;
        lengths[a == 0 ? 1 : 0] = 1;
        return;
    }
    // Insertion sort by frequency (stable, n <= 286): ascending.
    for (int i = 1; i < used; i++) {
        uint16_t s = sorted[i];
        int j = i - 1;
        while (j >= 0 && freq[sorted[j]] > freq[s]) {
            sorted[j + 1] = sorted[j];
            j--;
        }
        sorted[j + 1] = s;
    }
    // Two-queue Huffman: leaves 0..used-1 in ascending order, internal nodes after them,
    // made in non-decreasing weight order.
    for (int i = 0; i < used; i++) weight[i] = freq[sorted[i]];
    int leaf = 0, node = used, next = used;
    for (int k = 0; k < used - 1; k++) {
        int pick[2];
        for (int t = 0; t < 2; t++) {
            if (leaf < used && (node >= next || weight[leaf] <= weight[node])) {
                pick[t] = leaf++;
            } else {
                pick[t] = node++;
            }
        }
        weight[next] = weight[pick[0]] + weight[pick[1]];
        parent[pick[0]] = parent[pick[1]] = (uint16_t)next;
        next++;
    }
    int root = next - 1;
    depth[root] = 0;
    int count[33] = {0};
    for (int i = root - 1; i >= 0; i--) {
        int d = depth[parent[i]] + 1;
        depth[i] = (uint8_t)(d > 32 ? 32 : d);
        if (i < used) count[depth[i] > max_bits ? max_bits : depth[i]]++;
    }
    uint32_t total = 0;
    for (int i = max_bits; i > 0; i--) total += (uint32_t)count[i] << (max_bits - i);
    while (total > (1u << max_bits)) {
        count[max_bits]--;
        for (int i = max_bits - 1; i > 0; i--) {
            if (count[i]) {
                count[i]--;
                count[i + 1] += 2;
                break;
            }
        }
        total--;
    }
    // Longest codes to the rarest symbols.
    int j = 0;
    for (int len = max_bits; len > 0; len--)
        for (int c = count[len]; c > 0; c--) lengths[sorted[j++]] = (uint8_t)len;
}

// Canonical codes for `lengths`, bit-reversed for LSB-first output.
static void fz_codes(const uint8_t *lengths, int n, uint16_t *codes) {
    int count[16] = {0};
    uint16_t next[16];
    for (int s = 0; s < n; s++) count[lengths[s]]++;
    count[0] = 0;
    uint16_t code = 0;
    for (int b = 1; b < 16; b++) {
        code = (uint16_t)((code + count[b - 1]) << 1);
        next[b] = code;
    }
    for (int s = 0; s < n; s++) {
        int len = lengths[s];
        if (!len) {
            codes[s] = 0;
            continue;
        }
        uint16_t c = next[len]++, r = 0;
        for (int i = 0; i < len; i++) r = (uint16_t)((r << 1) | ((c >> i) & 1));
        codes[s] = r;
    }
}

// Writes one dynamic block of `count` tokens (a token < 256 is a literal, else 256 + a run
// length - 3, at distance 1).
static void fz_write_block(fz_bits *b, const uint16_t *tokens, int count, const uint32_t *freq_in, int final,
                           const uint8_t *len_code) {
    uint32_t freq[FZ_RLE_LITLEN];
    memcpy(freq, freq_in, sizeof freq);
    freq[256] = 1;  // end of block
    uint8_t lengths[FZ_RLE_LITLEN + 2];
    uint16_t codes[FZ_RLE_LITLEN];
    fz_code_lengths(freq, FZ_RLE_LITLEN, FZ_RLE_MAX_BITS, lengths);
    fz_codes(lengths, FZ_RLE_LITLEN, codes);
    int hlit = FZ_RLE_LITLEN;
    while (hlit > 257 && lengths[hlit - 1] == 0) hlit--;
    // Two distance codes of one bit each: code 0 (distance 1) is "0".
    lengths[hlit] = 1;
    lengths[hlit + 1] = 1;
    int all = hlit + 2;
    // The code lengths run-length coded with 16 (repeat 3-6), 17 (zeros 3-10), 18 (zeros 11-138).
    uint8_t rle[FZ_RLE_LITLEN + 2], extra[FZ_RLE_LITLEN + 2];
    int n = 0;
    uint32_t cfreq[19] = {0};
    for (int i = 0; i < all;) {
        int v = lengths[i], run = 1;
        while (i + run < all && lengths[i + run] == v) run++;
        if (v == 0 && run >= 3) {
            int r = run > 138 ? 138 : run;
            if (r >= 11) {
                rle[n] = 18;
                extra[n++] = (uint8_t)(r - 11);
            } else {
                rle[n] = 17;
                extra[n++] = (uint8_t)(r - 3);
            }
            i += r;
        } else if (v != 0 && run >= 4) {
            rle[n++] = (uint8_t)v;  // the value once, then repeats of it
            int r = run - 1 > 6 ? 6 : run - 1;
            if (r < 3) {
                i += 1;
                continue;
            }
            rle[n] = 16;
            extra[n++] = (uint8_t)(r - 3);
            i += 1 + r;
        } else {
            rle[n++] = (uint8_t)v;
            i += 1;
        }
    }
    for (int k = 0; k < n; k++) cfreq[rle[k]]++;
    uint8_t clen[19];
    uint16_t ccode[19];
    fz_code_lengths(cfreq, 19, 7, clen);
    fz_codes(clen, 19, ccode);
    int hclen = 19;
    while (hclen > 4 && clen[fz_clen_order[hclen - 1]] == 0) hclen--;
    fz_put(b, (uint64_t)(final ? 1 : 0) | (2u << 1), 3);
    fz_put(b, (uint64_t)(hlit - 257), 5);
    fz_put(b, 1, 5);  // HDIST - 1: two distance codes
    fz_put(b, (uint64_t)(hclen - 4), 4);
    for (int k = 0; k < hclen; k++) fz_put(b, clen[fz_clen_order[k]], 3);
    for (int k = 0; k < n; k++) {
        int s = rle[k];
        fz_put(b, ccode[s], clen[s]);
        if (s == 16) fz_put(b, extra[k], 2);
        else if (s == 17) fz_put(b, extra[k], 3);
        else if (s == 18) fz_put(b, extra[k], 7);
    }
    // The tokens: a match is its length code, extra bits, then distance code 0 (one 0 bit).
    uint32_t literal[256];  // code | length << 16
    for (int t = 0; t < 256; t++) literal[t] = codes[t] | (uint32_t)lengths[t] << 16;
    for (int k = 0; k < count; k++) {
        unsigned t = tokens[k];
        if (t < 256) {
            fz_put(b, literal[t] & 0xFFFF, (int)(literal[t] >> 16));
        } else {
            unsigned len = t - 256 + 3, lc = len_code[len - 3];
            uint64_t v = codes[257 + lc];
            int bits = lengths[257 + lc];
            v |= (uint64_t)(len - fz_len_base[lc]) << bits;
            bits += fz_len_extra[lc];
            fz_put(b, v, bits + 1);  // + the distance code's 0 bit
        }
    }
    fz_put(b, codes[256], lengths[256]);
}

size_t fz_rle_deflate_bound(size_t length) {
    // Literals at most 15 bits; a header per block (at most ~300 bytes); the flush.
    return length * 2 + (length / FZ_RLE_BLOCK_TOKENS + 2) * 320 + 64;
}

int fz_rle_deflate(const uint8_t *data, size_t length, int previous, int last, uint8_t *out, size_t *out_length) {
    uint8_t len_code[256];  // run length - 3 -> length code - 257
    for (int c = 0; c < 28; c++)
        for (int len = fz_len_base[c]; len < fz_len_base[c] + (1 << fz_len_extra[c]) && len < 258; len++) len_code[len - 3] = (uint8_t)c;
    len_code[258 - 3] = 28;  // 258 has a code of its own
    uint16_t *tokens = malloc(FZ_RLE_BLOCK_TOKENS * sizeof(uint16_t));
    if (tokens == NULL) return FZ_ERROR;
    fz_bits b = {out, 0, 0};
    size_t i = 0;
    int prev = previous;  // -1: no byte before
    do {
        uint32_t freq[FZ_RLE_LITLEN] = {0};
        int count = 0;
        while (i < length && count < FZ_RLE_BLOCK_TOKENS) {
            uint8_t c = data[i];
            if ((int)c == prev && i + 2 < length && data[i + 1] == c && data[i + 2] == c) {
                size_t max = length - i > FZ_RLE_MAX_MATCH ? FZ_RLE_MAX_MATCH : length - i, run = 3;
                while (run < max && data[i + run] == c) run++;
                tokens[count++] = (uint16_t)(256 + run - 3);
                freq[257 + len_code[run - 3]]++;
                i += run;
            } else {
                tokens[count++] = c;
                freq[c]++;
                prev = c;
                i++;
            }
        }
        int final = last && i >= length;
        fz_write_block(&b, tokens, count, freq, final, len_code);
    } while (i < length);
    free(tokens);
    if (!last) {
        // As zlib's sync flush: an empty stored block ends the band on a byte boundary.
        fz_put(&b, 0, 3);
        fz_align(&b);
        b.out[0] = 0;
        b.out[1] = 0;
        b.out[2] = 0xFF;
        b.out[3] = 0xFF;
        b.out += 4;
    } else {
        fz_align(&b);
    }
    *out_length = (size_t)(b.out - out);
    return FZ_OK;
}
