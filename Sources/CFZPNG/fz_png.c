// Over 300 lines on purpose: every libpng call that can longjmp (reading, the row writer,
// the parallel encoder's chunks, the whole-image fixture writer) runs here under setjmp.
// libpng behind setjmp: see fz_common.h for why every function here exists.
#include "fz_png.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

struct fz_png_reader {
    png_structp png;
    png_infop info;
    fz_png_header header;
    uint32_t rows_read;
    int warnings;
    int iccp_dropped;  // libpng refused the iCCP chunk (fz_png_read_warning)
    int short_read;    // the file ended (or failed) under libpng (fz_png_read_data)
    fz_png_failure failure;
    char message[FZ_MESSAGE_MAX];
};

static void fz_copy_message(char *dst, const char *src) {
    if (src == NULL) src = "unknown error";
    strncpy(dst, src, FZ_MESSAGE_MAX - 1);
    dst[FZ_MESSAGE_MAX - 1] = '\0';
}

// libpng's texts for compressed data that stops before the image does (pngrutil.c's
// png_read_IDAT_data and png_zstream_error, libpng 1.6): libpng has no error codes, so these
// few fixed texts are matched here, once, and Swift gets fz_png_failure.
static int fz_png_means_truncated(const char *text) {
    static const char *const hints[] = {"Not enough image data", "unexpected end", "truncated"};
    for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++)
        if (strstr(text, hints[i]) != NULL) return 1;
    return 0;
}

static void fz_png_read_error(png_structp png, png_const_charp text) {
    fz_png_reader *reader = (fz_png_reader *)png_get_error_ptr(png);
    fz_copy_message(reader->message, text);
    reader->failure = reader->short_read || (text != NULL && fz_png_means_truncated(text)) ? FZ_PNG_TRUNCATED
                                                                                           : FZ_PNG_CORRUPT;
    png_longjmp(png, 1);  // lands in the setjmp of the fz_ function that called libpng
}

static void fz_png_read_warning(png_structp png, png_const_charp text) {
    fz_png_reader *reader = (fz_png_reader *)png_get_error_ptr(png);
    // libpng drops an iCCP chunk it finds broken (a tag outside the profile, a bad header,
    // over the chunk limit) with a warning: the profile was there, and could not be read.
    if (strncmp(text, "iCCP", 4) == 0) reader->iccp_dropped = 1;
    reader->warnings++;
    if (reader->message[0] == '\0') fz_copy_message(reader->message, text);
}

// libpng's stdio reader (png_default_read_data), but a short read is known for what it is:
// the file ended before libpng had what it needed.
static void fz_png_read_data(png_structp png, png_bytep data, size_t length) {
    if (fread(data, 1, length, (FILE *)png_get_io_ptr(png)) != length) {
        ((fz_png_reader *)png_get_error_ptr(png))->short_read = 1;
        png_error(png, "Read Error");
    }
}

int fz_png_open(FILE *file, size_t chunk_malloc_max, fz_png_reader **out) {
    fz_png_reader *reader = calloc(1, sizeof *reader);
    *out = reader;
    if (reader == NULL) return FZ_ERROR;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, fz_png_read_error,
                                         fz_png_read_warning);
    if (reader->png == NULL) {
        fz_copy_message(reader->message, "out of memory");
        reader->failure = FZ_PNG_CORRUPT;
        return FZ_ERROR;
    }
    reader->info = png_create_info_struct(reader->png);
    if (reader->info == NULL) {
        fz_copy_message(reader->message, "out of memory");
        reader->failure = FZ_PNG_CORRUPT;
        return FZ_ERROR;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        // IHDR's size, if it was read (and its CRC passed) before the error.
        reader->header.width = png_get_image_width(reader->png, reader->info);
        reader->header.height = png_get_image_height(reader->png, reader->info);
        return FZ_ERROR;
    }

    png_structp png = reader->png;
    png_infop info = reader->info;
    png_set_read_fn(png, file, fz_png_read_data);
    // Bounds for hostile files: no ancillary chunk may allocate more than chunk_malloc_max,
    // decompressed. libpng enforces that for compressed chunks and iCCP, but a chunk's own
    // length over the limit is only a benign error ("chunk data is too large"), after
    // which libpng mallocs the length it read (up to 2 GiB for a 57-byte file with one
    // sPLT header: found by the fuzzer). Hence the chunk lists below.
    png_set_chunk_malloc_max(png, chunk_malloc_max);
    // Width/height are checked by the caller against its pixel and memory limits between
    // fz_png_open and fz_png_start (before libpng sizes any row buffer); lift libpng's own
    // 1,000,000 default so a 1-million-pixel-wide panorama is not refused here.
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    // Skip, unread, every ancillary chunk forcezoom does not use (text, sPLT, hIST, pHYs,
    // tIME... and unknown ones): -1 means all of them but tRNS. Then let libpng handle
    // the few that info reports, all small or bounded (gAMA, cHRM, sRGB, sBIT; iCCP, whose
    // declared profile length is checked against the limit before it is inflated).
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    static const png_byte used[] = {'g', 'A', 'M', 'A', '\0', 'c', 'H', 'R', 'M', '\0', 's', 'R', 'G', 'B', '\0',
                                    's', 'B', 'I', 'T', '\0', 'i', 'C', 'C', 'P', '\0'};
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_AS_DEFAULT, used, 5);
    // eXIf is kept as an unknown chunk: libpng caches those only up to chunk_malloc_max
    // (its own eXIf handler mallocs whatever length the chunk claims). Few are cached.
    // iTXt likewise, raw, for the XMP packet (Swift reads the chunk's fields).
    // cICP too (4 bytes; libpng before 1.6.45 does not know it).
    static const png_byte kept_chunks[] = {'e', 'X', 'I', 'f', '\0', 'i', 'T', 'X', 't', '\0',
                                           'c', 'I', 'C', 'P', '\0'};
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_ALWAYS, kept_chunks, 3);
    png_set_chunk_cache_max(png, 16);
    // Bad CRCs in ancillary chunks: warn and discard the chunk; critical: error.
    png_set_crc_action(png, PNG_CRC_DEFAULT, PNG_CRC_DEFAULT);
    png_set_benign_errors(png, 1);

    png_read_info(png, info);

    fz_png_header *h = &reader->header;
    h->width = png_get_image_width(png, info);
    h->height = png_get_image_height(png, info);
    h->bit_depth = png_get_bit_depth(png, info);
    h->color_type = png_get_color_type(png, info);
    h->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    h->has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    h->has_iccp = png_get_valid(png, info, PNG_INFO_iCCP) != 0 || reader->iccp_dropped;
    h->has_chrm = png_get_valid(png, info, PNG_INFO_cHRM) != 0;
    h->has_srgb = png_get_valid(png, info, PNG_INFO_sRGB) != 0;
    h->has_sbit = png_get_valid(png, info, PNG_INFO_sBIT) != 0;
    if (png_get_valid(png, info, PNG_INFO_gAMA)) {
        h->has_gamma = 1;
        png_get_gAMA(png, info, &h->gamma);
    }
    h->srgb_intent = -1;
    if (h->has_srgb) png_get_sRGB(png, info, &h->srgb_intent);
    if (h->has_chrm)
        png_get_cHRM(png, info, &h->chrm[0], &h->chrm[1], &h->chrm[2], &h->chrm[3], &h->chrm[4], &h->chrm[5],
                     &h->chrm[6], &h->chrm[7]);
    if (h->has_iccp) {
        png_charp name = NULL;
        int compression = 0;
        png_bytep profile = NULL;
        png_uint_32 length = 0;
        // Inflated by libpng under the chunk limit (png_set_chunk_malloc_max); owned by info.
        if (png_get_iCCP(png, info, &name, &compression, &profile, &length) && profile != NULL && length > 0) {
            h->icc = profile;
            h->icc_length = length;
        }
    }
    png_unknown_chunkp unknowns = NULL;
    int count = png_get_unknown_chunks(png, info, &unknowns);
    for (int i = 0; i < count; i++) {
        if (memcmp(unknowns[i].name, "eXIf", 4) == 0 && unknowns[i].data != NULL && unknowns[i].size > 0 &&
            h->exif == NULL) {
            h->exif = unknowns[i].data;
            h->exif_length = (uint32_t)unknowns[i].size;
        }
        static const char xmp_key[] = "XML:com.adobe.xmp";  // and its NUL
        if (memcmp(unknowns[i].name, "iTXt", 4) == 0 && unknowns[i].data != NULL &&
            unknowns[i].size > sizeof xmp_key && memcmp(unknowns[i].data, xmp_key, sizeof xmp_key) == 0 &&
            h->xmp_itxt == NULL) {
            h->xmp_itxt = unknowns[i].data;
            h->xmp_itxt_length = (uint32_t)unknowns[i].size;
        }
        if (memcmp(unknowns[i].name, "cICP", 4) == 0 && unknowns[i].data != NULL && unknowns[i].size == 4 &&
            !h->has_cicp) {
            h->has_cicp = 1;
            memcpy(h->cicp, unknowns[i].data, 4);
        }
    }
    reader->message[0] = '\0';  // warnings so far stay counted; the text is for errors
    return FZ_OK;
}

static int fz_png_start_depth(fz_png_reader *reader, int keep16);

int fz_png_start(fz_png_reader *reader) { return fz_png_start_depth(reader, 0); }

int fz_png_start_keep16(fz_png_reader *reader) { return fz_png_start_depth(reader, 1); }

static int fz_png_start_depth(fz_png_reader *reader, int keep16) {
    if (setjmp(png_jmpbuf(reader->png))) return FZ_ERROR;
    png_structp png = reader->png;
    png_infop info = reader->info;
    fz_png_header *h = &reader->header;

    // Stored samples, expanded to 8-bit gray, gray+alpha, RGB or RGBA. No gamma.
    int color = h->color_type;
    int has_alpha = (color & PNG_COLOR_MASK_ALPHA) != 0;
    if (color == PNG_COLOR_TYPE_PALETTE) {
        png_set_palette_to_rgb(png);
    } else if (color == PNG_COLOR_TYPE_GRAY && h->bit_depth < 8) {
        png_set_expand_gray_1_2_4_to_8(png);
    }
    if (h->has_trns) {
        png_set_tRNS_to_alpha(png);
        has_alpha = 1;
    }
    if (h->bit_depth == 16 && !keep16) png_set_scale_16(png);
    if (h->interlaced) png_set_interlace_handling(png);
    png_read_update_info(png, info);

    int is_gray = (color & PNG_COLOR_MASK_COLOR) == 0;
    h->channels = (is_gray ? 1 : 3) + (has_alpha ? 1 : 0);
    int depth = h->bit_depth == 16 && keep16 ? 16 : 8;
    if ((int)png_get_channels(png, info) != h->channels || png_get_bit_depth(png, info) != depth) {
        fz_copy_message(reader->message, "unexpected layout after PNG transforms");
        reader->failure = FZ_PNG_CORRUPT;
        return FZ_ERROR;
    }
    reader->message[0] = '\0';
    return FZ_OK;
}

const fz_png_header *fz_png_header_of(const fz_png_reader *reader) { return &reader->header; }
const char *fz_png_message(const fz_png_reader *reader) { return reader->message; }
fz_png_failure fz_png_failure_of(const fz_png_reader *reader) {
    return reader->failure ? reader->failure : FZ_PNG_CORRUPT;
}
int fz_png_warning_count(const fz_png_reader *reader) { return reader->warnings; }

int fz_png_read_rows(fz_png_reader *reader, uint8_t *rows, uint32_t count, size_t stride,
                     uint32_t *done) {
    // volatile: the count must survive the longjmp back into this frame.
    volatile uint32_t i = 0;
    *done = 0;
    if (setjmp(png_jmpbuf(reader->png))) {
        *done = i;
        return FZ_ERROR;
    }
    for (; i < count; i++) png_read_row(reader->png, rows + (size_t)i * stride, NULL);
    *done = i;
    reader->rows_read += i;
    // After the last row, read the chunks that follow to IEND, so a file cut or damaged
    // after its image data (no IEND, a bad CRC, junk) is found. A crop that stops early
    // never gets here.
    if (reader->rows_read >= reader->header.height && !reader->header.interlaced) png_read_end(reader->png, NULL);
    return FZ_OK;
}

int fz_png_read_interlaced(fz_png_reader *reader, uint8_t *pixels, size_t stride) {
    uint32_t height = reader->header.height;
    png_bytep *rows = malloc(sizeof(png_bytep) * (height ? height : 1));
    if (rows == NULL) {
        fz_copy_message(reader->message, "out of memory");
        reader->failure = FZ_PNG_CORRUPT;
        return FZ_ERROR;
    }
    for (uint32_t y = 0; y < height; y++) rows[y] = pixels + (size_t)y * stride;
    png_bytep *volatile keep = rows;
    if (setjmp(png_jmpbuf(reader->png))) {
        free(keep);
        return FZ_ERROR;
    }
    png_read_image(reader->png, rows);
    png_read_end(reader->png, NULL);  // to IEND, as for non-interlaced images
    free(rows);
    return FZ_OK;
}

void fz_png_reader_free(fz_png_reader *reader) {
    if (reader == NULL) return;
    if (reader->png != NULL) png_destroy_read_struct(&reader->png, &reader->info, NULL);
    free(reader);
}

// ---------------------------------------------------------------------------------------

struct fz_png_writer {
    png_structp png;
    png_infop info;
    fz_png_failure failure;  // FZ_PNG_WRITE_FAILED from fz_png_write_data, else 0
    char message[FZ_MESSAGE_MAX];
};

static void fz_png_write_error(png_structp png, png_const_charp text) {
    fz_png_writer *writer = (fz_png_writer *)png_get_error_ptr(png);
    fz_copy_message(writer->message, text);
    png_longjmp(png, 1);
}

// Warnings while writing (a profile libpng refused, left out) change nothing the caller does.
static void fz_png_write_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

// libpng's stdio writer and flush (png_default_write_data, png_default_flush), but a refused
// write is known for what it is, so Swift can report errno's reason (no space left...).
static void fz_png_write_data(png_structp png, png_bytep data, size_t length) {
    if (fwrite(data, 1, length, (FILE *)png_get_io_ptr(png)) != length) {
        ((fz_png_writer *)png_get_error_ptr(png))->failure = FZ_PNG_WRITE_FAILED;
        png_error(png, "Write Error");
    }
}

static void fz_png_flush_data(png_structp png) { fflush((FILE *)png_get_io_ptr(png)); }

int fz_png_writer_begin_depth(FILE *file, uint32_t width, uint32_t height, int channels, int bit_depth,
                              int level, int filters, int strategy, const fz_png_color *color,
                              fz_png_writer **out) {
    fz_png_writer *writer = calloc(1, sizeof *writer);
    *out = writer;
    if (writer == NULL) return FZ_ERROR;
    writer->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, writer, fz_png_write_error,
                                          fz_png_write_warning);
    if (writer->png == NULL) {
        fz_copy_message(writer->message, "out of memory");
        return FZ_ERROR;
    }
    writer->info = png_create_info_struct(writer->png);
    if (writer->info == NULL) {
        fz_copy_message(writer->message, "out of memory");
        return FZ_ERROR;
    }
    if (setjmp(png_jmpbuf(writer->png))) return FZ_ERROR;
    static const int types[] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
    if (channels < 1 || channels > 4) {
        fz_copy_message(writer->message, "unsupported channel count");
        return FZ_ERROR;
    }
    png_set_write_fn(writer->png, file, fz_png_write_data, fz_png_flush_data);
    png_set_IHDR(writer->png, writer->info, width, height, bit_depth == 16 ? 16 : 8, types[channels],
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(writer->png, level);
    png_set_compression_strategy(writer->png, strategy);
    png_set_filter(writer->png, PNG_FILTER_TYPE_BASE, filters);
    if (color != NULL) {
        png_set_benign_errors(writer->png, 1);
        if (color->icc != NULL && color->icc_length > 0) {
            png_set_iCCP(writer->png, writer->info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, color->icc, color->icc_length);
        } else {
            if (color->srgb_intent >= 0) png_set_sRGB(writer->png, writer->info, color->srgb_intent);
            if (color->gamma > 0) png_set_gAMA(writer->png, writer->info, color->gamma);
            if (color->has_chrm)
                png_set_cHRM(writer->png, writer->info, color->chrm[0], color->chrm[1], color->chrm[2], color->chrm[3],
                             color->chrm[4], color->chrm[5], color->chrm[6], color->chrm[7]);
        }
    }
    png_write_info(writer->png, writer->info);
    return FZ_OK;
}

int fz_png_writer_rows(fz_png_writer *writer, const uint8_t *rows, uint32_t count,
                       size_t stride) {
    if (setjmp(png_jmpbuf(writer->png))) return FZ_ERROR;
    for (uint32_t i = 0; i < count; i++)
        png_write_row(writer->png, (png_const_bytep)(rows + (size_t)i * stride));
    return FZ_OK;
}

int fz_png_writer_end(fz_png_writer *writer) {
    if (setjmp(png_jmpbuf(writer->png))) return FZ_ERROR;
    png_write_end(writer->png, NULL);
    png_write_flush(writer->png);
    return FZ_OK;
}

int fz_png_writer_chunk(fz_png_writer *writer, const char name[5], const uint8_t *data, size_t length) {
    if (setjmp(png_jmpbuf(writer->png))) return FZ_ERROR;
    png_write_chunk(writer->png, (png_const_bytep)name, data, length);
    return FZ_OK;
}

int fz_png_writer_flush(fz_png_writer *writer) {
    if (setjmp(png_jmpbuf(writer->png))) return FZ_ERROR;
    png_write_flush(writer->png);
    return FZ_OK;
}

const char *fz_png_writer_message(const fz_png_writer *writer) { return writer->message; }
fz_png_failure fz_png_writer_failure_of(const fz_png_writer *writer) {
    return writer->failure ? writer->failure : FZ_PNG_CORRUPT;
}

void fz_png_writer_free(fz_png_writer *writer) {
    if (writer == NULL) return;
    if (writer->png != NULL) png_destroy_write_struct(&writer->png, &writer->info);
    free(writer);
}

// ---------------------------------------------------------------------------------------

struct fz_png_image_writer {
    char *message;
};

static void fz_png_image_error(png_structp png, png_const_charp text) {
    struct fz_png_image_writer *w = (struct fz_png_image_writer *)png_get_error_ptr(png);
    fz_copy_message(w->message, text);
    png_longjmp(png, 1);
}

int fz_png_write_image(FILE *file, const fz_png_spec *spec, const uint8_t *rows, size_t stride,
                       char *message) {
    struct fz_png_image_writer w = {message};
    message[0] = '\0';
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &w, fz_png_image_error,
                                              fz_png_write_warning);
    if (png == NULL) {
        fz_copy_message(message, "out of memory");
        return FZ_ERROR;
    }
    png_infop info = png_create_info_struct(png);
    png_bytep *row_pointers = NULL;
    png_bytep *volatile keep = NULL;
    if (info == NULL || setjmp(png_jmpbuf(png))) {
        if (info == NULL) fz_copy_message(message, "out of memory");
        free(keep);
        png_destroy_write_struct(&png, &info);
        return FZ_ERROR;
    }
    png_init_io(png, file);
    png_set_IHDR(png, info, spec->width, spec->height, spec->bit_depth, spec->color_type,
                 spec->interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (spec->icc != NULL && spec->icc_length > 0)
        png_set_iCCP(png, info, "ICC profile", PNG_COMPRESSION_TYPE_BASE, spec->icc, spec->icc_length);
    if (spec->color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color colors[256];
        for (int i = 0; i < spec->palette_count && i < 256; i++) {
            colors[i].red = spec->palette[3 * i];
            colors[i].green = spec->palette[3 * i + 1];
            colors[i].blue = spec->palette[3 * i + 2];
        }
        png_set_PLTE(png, info, colors, spec->palette_count);
        if (spec->trns_count > 0)
            png_set_tRNS(png, info, (png_bytep)spec->trns_alpha, spec->trns_count, NULL);
    } else if (spec->has_trns_color) {
        png_color_16 c;
        memset(&c, 0, sizeof c);
        c.gray = spec->trns_gray;
        c.red = spec->trns_red;
        c.green = spec->trns_green;
        c.blue = spec->trns_blue;
        png_set_tRNS(png, info, NULL, 0, &c);
    }
    if (spec->exif != NULL && spec->exif_length > 0)
        png_set_eXIf_1(png, info, spec->exif_length, (png_bytep)spec->exif);
    png_set_compression_level(png, spec->level);
    png_set_compression_strategy(png, spec->strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, spec->filters);
    row_pointers = malloc(sizeof(png_bytep) * (spec->height ? spec->height : 1));
    keep = row_pointers;
    if (row_pointers == NULL) png_error(png, "out of memory");
    for (uint32_t y = 0; y < spec->height; y++) row_pointers[y] = (png_bytep)(rows + (size_t)y * stride);
    png_write_info(png, info);
    png_write_image(png, row_pointers);
    png_write_end(png, NULL);
    png_write_flush(png);
    free(row_pointers);
    keep = NULL;
    png_destroy_write_struct(&png, &info);
    return FZ_OK;
}
