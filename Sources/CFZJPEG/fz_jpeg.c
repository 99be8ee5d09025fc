// Over 300 lines on purpose: every libjpeg call that can longjmp (header, scaled and cropped
// decoding, CMYK/YCCK conversion, writing) runs here under one error manager.
// libjpeg-turbo behind setjmp: see fz_common.h for why every function here exists.
#include "fz_jpeg.h"
#include "fz_color.h"

#include <jpeglib.h>
#include <jerror.h>  // the message codes fz_jpeg_failure_for sorts
#include <limits.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

struct fz_error_manager {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char *message;
    fz_jpeg_failure failure;  // what `message` is, set with it
    int *warnings;
    int strict;
};

struct fz_jpeg_reader {
    struct jpeg_decompress_struct cinfo;
    struct fz_error_manager error;
    struct jpeg_progress_mgr progress;
    int max_scans;
    int started;
    fz_jpeg_header header;
    JSAMPROW scratch;  // one row of CMYK for the conversion to RGB
    JOCTET *icc;       // the reassembled ICC profile (malloc'd by libjpeg-turbo), or NULL
    fz_color_transform *cmyk;  // CMYK to sRGB through a profile (fz_color.c), or NULL: the formula
    int warnings;
    char message[FZ_MESSAGE_MAX];
};

// The kind of libjpeg's message `code` (a J_MESSAGE_CODE from jerror.h).
static fz_jpeg_failure fz_jpeg_failure_for(int code) {
    switch (code) {
    case JERR_INPUT_EOF:
    case JWRN_JPEG_EOF: return FZ_JPEG_TRUNCATED;
    case JERR_BAD_PRECISION: return FZ_JPEG_UNSUPPORTED_PRECISION;
    case JERR_CONVERSION_NOTIMPL:
    case JERR_BAD_J_COLORSPACE: return FZ_JPEG_UNSUPPORTED_COLOR;
    case JERR_SOF_UNSUPPORTED: return FZ_JPEG_UNSUPPORTED_PROCESS;
    case JERR_NO_BACKING_STORE: return FZ_JPEG_MEMORY_LIMIT;
    case JERR_FILE_WRITE: return FZ_JPEG_WRITE_FAILED;
    default: return FZ_JPEG_CORRUPT;
    }
}

// A message of our own, with its kind.
static void fz_jpeg_fail(struct fz_error_manager *err, fz_jpeg_failure failure, const char *text) {
    snprintf(err->message, FZ_MESSAGE_MAX, "%s", text);
    err->failure = failure;
}

static void fz_error_exit(j_common_ptr cinfo) {
    struct fz_error_manager *err = (struct fz_error_manager *)cinfo->err;
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buffer);
    strncpy(err->message, buffer, FZ_MESSAGE_MAX - 1);
    err->message[FZ_MESSAGE_MAX - 1] = '\0';
    err->failure = fz_jpeg_failure_for(cinfo->err->msg_code);
    longjmp(err->jump, 1);  // lands in the setjmp of the fz_ function that called libjpeg
}

static void fz_emit_message(j_common_ptr cinfo, int level) {
    struct fz_error_manager *err = (struct fz_error_manager *)cinfo->err;
    if (level >= 0) return;  // trace messages
    // A warning means corrupt data (libjpeg grey-fills and carries on). forcezoom
    // refuses such files unless --lenient; the message is what libjpeg says.
    (*err->warnings)++;
    if (err->message[0] == '\0' || err->strict) {
        char buffer[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, buffer);
        strncpy(err->message, buffer, FZ_MESSAGE_MAX - 1);
        err->message[FZ_MESSAGE_MAX - 1] = '\0';
        err->failure = fz_jpeg_failure_for(cinfo->err->msg_code);
    }
    if (err->strict) longjmp(err->jump, 1);
}

static void fz_progress(j_common_ptr cinfo) {
    fz_jpeg_reader *reader = (fz_jpeg_reader *)((char *)cinfo - offsetof(fz_jpeg_reader, cinfo));
    j_decompress_ptr d = (j_decompress_ptr)cinfo;
    if (reader->max_scans > 0 && d->progressive_mode && d->input_scan_number > reader->max_scans) {
        snprintf(reader->message, FZ_MESSAGE_MAX, "progressive JPEG has more than %d scans (a scan bomb?)",
                 reader->max_scans);
        reader->error.failure = FZ_JPEG_SCAN_LIMIT;
        longjmp(reader->error.jump, 1);
    }
}

// libjpeg keeps whether a frame is progressive or arithmetic, not its SOFn code, so an
// extended-sequential (SOF1) file would pass for baseline: the segments before the frame
// are walked here (lengths only, never read whole), and the stream put back where it was.
static int fz_jpeg_sof_marker(FILE *file) {
    long start = ftell(file);
    if (start < 0) return 0;
    int found = 0;
    if (fgetc(file) == 0xFF && fgetc(file) == 0xD8) {
        for (int segments = 0; segments < 4096; segments++) {
            int c = fgetc(file);
            if (c != 0xFF) break;
            while (c == 0xFF) c = fgetc(file);  // fill bytes
            if (c == EOF || c == 0xD9 || c == 0xDA) break;
            if (c == 0x01 || (c >= 0xD0 && c <= 0xD7)) continue;
            int hi = fgetc(file), lo = fgetc(file);
            if (hi == EOF || lo == EOF) break;
            int length = hi << 8 | lo;
            if (c >= 0xC0 && c <= 0xCF && c != 0xC4 && c != 0xC8 && c != 0xCC) {
                found = c;
                break;
            }
            if (length < 2 || fseek(file, length - 2, SEEK_CUR) != 0) break;
        }
    }
    clearerr(file);
    fseek(file, start, SEEK_SET);
    return found;
}

// libjpeg's stdio source, with a 32 KiB buffer instead of its 4 KiB. libjpeg-turbo decodes
// an MCU on its fast Huffman path only while 512 bytes a block (2 KiB for a 4:2:2 MCU) are
// buffered, so with 4 KiB about half the MCUs took the slow path (jpeg_fill_bit_buffer was
// 5% of `thumb --crop-at attention` of a 20 MP JPEG; issue 49). Otherwise as jdatasrc.c: at
// the end of the file a fake EOI and a warning (a truncated file), an empty file an error.
#define FZ_JPEG_INPUT_BUFFER 32768

typedef struct {
    struct jpeg_source_mgr pub;
    FILE *file;
    JOCTET *buffer;
    boolean start_of_file;
} fz_jpeg_source;

static void fz_source_init(j_decompress_ptr cinfo) {
    ((fz_jpeg_source *)cinfo->src)->start_of_file = TRUE;
}

static boolean fz_source_fill(j_decompress_ptr cinfo) {
    fz_jpeg_source *src = (fz_jpeg_source *)cinfo->src;
    size_t n = fread(src->buffer, 1, FZ_JPEG_INPUT_BUFFER, src->file);
    if (n == 0) {
        if (src->start_of_file) ERREXIT(cinfo, JERR_INPUT_EMPTY);
        WARNMS(cinfo, JWRN_JPEG_EOF);
        src->buffer[0] = (JOCTET)0xFF;
        src->buffer[1] = (JOCTET)JPEG_EOI;
        n = 2;
    }
    src->pub.next_input_byte = src->buffer;
    src->pub.bytes_in_buffer = n;
    src->start_of_file = FALSE;
    return TRUE;
}

static void fz_source_skip(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *src = cinfo->src;
    if (count <= 0) return;
    while (count > (long)src->bytes_in_buffer) {
        count -= (long)src->bytes_in_buffer;
        (void)(*src->fill_input_buffer)(cinfo);
    }
    src->next_input_byte += (size_t)count;
    src->bytes_in_buffer -= (size_t)count;
}

static void fz_source_term(j_decompress_ptr cinfo) { (void)cinfo; }

static void fz_jpeg_file_source(j_decompress_ptr cinfo, FILE *file) {
    fz_jpeg_source *src = (fz_jpeg_source *)(*cinfo->mem->alloc_small)(
        (j_common_ptr)cinfo, JPOOL_PERMANENT, sizeof(fz_jpeg_source));
    src->buffer = (JOCTET *)(*cinfo->mem->alloc_small)(
        (j_common_ptr)cinfo, JPOOL_PERMANENT, FZ_JPEG_INPUT_BUFFER);
    src->pub.init_source = fz_source_init;
    src->pub.fill_input_buffer = fz_source_fill;
    src->pub.skip_input_data = fz_source_skip;
    src->pub.resync_to_restart = jpeg_resync_to_restart;
    src->pub.term_source = fz_source_term;
    src->pub.bytes_in_buffer = 0;
    src->pub.next_input_byte = NULL;
    src->file = file;
    cinfo->src = &src->pub;
}

int fz_jpeg_open(FILE *file, int strict, int max_scans, size_t max_memory, fz_jpeg_reader **out) {
    fz_jpeg_reader *reader = calloc(1, sizeof *reader);
    *out = reader;
    if (reader == NULL) return FZ_ERROR;
    reader->cinfo.err = jpeg_std_error(&reader->error.pub);
    reader->error.pub.error_exit = fz_error_exit;
    reader->error.pub.emit_message = fz_emit_message;
    reader->error.message = reader->message;
    reader->error.warnings = &reader->warnings;
    reader->error.strict = strict;
    reader->max_scans = max_scans;
    reader->header.sof_marker = fz_jpeg_sof_marker(file);
    if (setjmp(reader->error.jump)) {
        // The SOF's size, if it was read before the error (0 otherwise).
        reader->header.width = reader->cinfo.image_width;
        reader->header.height = reader->cinfo.image_height;
        return FZ_ERROR;
    }
    jpeg_create_decompress(&reader->cinfo);
    // Whole-image coefficient buffers (progressive, multi-scan) above this fail cleanly
    // ("Backing store not supported": jmemnobs has none) instead of being allocated.
    if (max_memory > 0)
        reader->cinfo.mem->max_memory_to_use = max_memory > (size_t)LONG_MAX ? LONG_MAX : (long)max_memory;
    reader->progress.progress_monitor = fz_progress;
    reader->cinfo.progress = &reader->progress;
    fz_jpeg_file_source(&reader->cinfo, file);
    jpeg_save_markers(&reader->cinfo, JPEG_APP0 + 1, 0xFFFF);  // EXIF
    jpeg_save_markers(&reader->cinfo, JPEG_APP0 + 2, 0xFFFF);  // ICC
    jpeg_save_markers(&reader->cinfo, JPEG_APP0 + 13, 0xFFFF);  // Photoshop IRB: IPTC
    jpeg_read_header(&reader->cinfo, TRUE);

    struct jpeg_decompress_struct *c = &reader->cinfo;
    fz_jpeg_header *h = &reader->header;
    h->width = c->image_width;
    h->height = c->image_height;
    h->components = c->num_components;
    h->color_space = c->jpeg_color_space;
    h->progressive = c->progressive_mode;
    h->arithmetic = c->arith_code;
    h->data_precision = c->data_precision;
    h->multiple_scans = jpeg_has_multiple_scans(c) ? 1 : 0;
    for (int i = 0; i < c->num_components && i < 4; i++) {
        h->h_samp[i] = c->comp_info[i].h_samp_factor;
        h->v_samp[i] = c->comp_info[i].v_samp_factor;
    }
    h->saw_adobe = c->saw_Adobe_marker;
    h->adobe_transform = c->Adobe_transform;
    for (jpeg_saved_marker_ptr m = c->marker_list; m != NULL; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && h->exif == NULL && m->data_length >= 6 &&
            memcmp(m->data, "Exif\0\0", 6) == 0) {
            h->exif = m->data + 6;
            h->exif_length = m->data_length - 6;
        }
        static const char irb[] = "Photoshop 3.0";  // and its NUL: 14 bytes
        if (m->marker == JPEG_APP0 + 13 && h->app13 == NULL && m->data_length > sizeof irb &&
            memcmp(m->data, irb, sizeof irb) == 0) {
            h->app13 = m->data + sizeof irb;
            h->app13_length = m->data_length - sizeof irb;
        }
        static const char xmp[] = "http://ns.adobe.com/xap/1.0/";  // and its NUL: 29 bytes
        if (m->marker == JPEG_APP0 + 1 && h->xmp == NULL && m->data_length > sizeof xmp &&
            memcmp(m->data, xmp, sizeof xmp) == 0) {
            h->xmp = m->data + sizeof xmp;
            h->xmp_length = m->data_length - sizeof xmp;
        }
        if (m->marker == JPEG_APP0 + 2 && m->data_length >= 12 &&
            memcmp(m->data, "ICC_PROFILE\0", 12) == 0)
            h->has_icc = 1;
    }
    // The profile's APP2 segments reassembled by sequence number (libjpeg-turbo's own
    // reader checks the numbering); a broken sequence leaves the profile out.
    if (h->has_icc) {
        JOCTET *icc = NULL;
        unsigned int length = 0;
        // A broken profile is metadata, not image data: not an error even in strict mode.
        int strict = reader->error.strict;
        reader->error.strict = 0;
        boolean read = jpeg_read_icc_profile(c, &icc, &length);
        reader->error.strict = strict;
        if (read && icc != NULL) {
            reader->icc = icc;
            h->icc = icc;
            h->icc_length = length;
        } else {
            free(icc);
        }
    }
    if (c->jpeg_color_space == JCS_GRAYSCALE) {
        c->out_color_space = JCS_GRAYSCALE;
        h->channels = 1;
    } else if (c->jpeg_color_space == JCS_CMYK || c->jpeg_color_space == JCS_YCCK) {
        c->out_color_space = JCS_CMYK;  // converted to RGB row by row below
        h->channels = 3;
    } else {
        c->out_color_space = JCS_EXT_RGB;
        h->channels = 3;
    }
    return FZ_OK;
}

const fz_jpeg_header *fz_jpeg_header_of(const fz_jpeg_reader *reader) { return &reader->header; }
const char *fz_jpeg_message(const fz_jpeg_reader *reader) { return reader->message; }
fz_jpeg_failure fz_jpeg_failure_of(const fz_jpeg_reader *reader) {
    return reader->error.failure ? reader->error.failure : FZ_JPEG_CORRUPT;
}
int fz_jpeg_warning_count(const fz_jpeg_reader *reader) { return reader->warnings; }

int fz_jpeg_start(fz_jpeg_reader *reader, int scale_denom, uint32_t x, uint32_t width,
                  uint32_t *out_x, uint32_t *out_width, uint32_t *out_height) {
    if (setjmp(reader->error.jump)) return FZ_ERROR;
    struct jpeg_decompress_struct *c = &reader->cinfo;
    c->scale_num = 1;
    c->scale_denom = (unsigned)scale_denom;
    jpeg_start_decompress(c);
    reader->started = 1;
    JDIMENSION xoffset = x, cwidth = width;
    if (width != 0 && (x != 0 || width != c->output_width)) {
        jpeg_crop_scanline(c, &xoffset, &cwidth);
    } else {
        xoffset = 0;
        cwidth = c->output_width;
    }
    *out_x = xoffset;
    *out_width = c->output_width;  // after jpeg_crop_scanline: the cropped width
    *out_height = c->output_height;
    if (c->out_color_space == JCS_CMYK) {
        reader->scratch = (*c->mem->alloc_sarray)((j_common_ptr)c, JPOOL_IMAGE,
                                                  c->output_width * 4, 1)[0];
    }
    return FZ_OK;
}

int fz_jpeg_skip_rows(fz_jpeg_reader *reader, uint32_t count) {
    if (setjmp(reader->error.jump)) return FZ_ERROR;
    JDIMENSION skipped = jpeg_skip_scanlines(&reader->cinfo, count);
    if (skipped != count) {
        snprintf(reader->message, FZ_MESSAGE_MAX, "could skip only %u of %u rows",
                 (unsigned)skipped, (unsigned)count);
        reader->error.failure = FZ_JPEG_CORRUPT;
        return FZ_ERROR;
    }
    return FZ_OK;
}

/// CMYK (as libjpeg returns it) to RGB. Adobe writes CMYK inverted (0 = full ink), which
/// is what almost every CMYK JPEG in the wild is; without the Adobe marker, the plain form.
static void fz_cmyk_to_rgb(const JSAMPLE *src, uint8_t *dst, JDIMENSION width, int inverted) {
    for (JDIMENSION i = 0; i < width; i++, src += 4, dst += 3) {
        unsigned c = src[0], m = src[1], y = src[2], k = src[3];
        if (!inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        // (c * k) / 255 rounded, as libvips and Pillow do.
        unsigned r = c * k + 128, g = m * k + 128, b = y * k + 128;
        dst[0] = (uint8_t)((r + (r >> 8)) >> 8);
        dst[1] = (uint8_t)((g + (g >> 8)) >> 8);
        dst[2] = (uint8_t)((b + (b >> 8)) >> 8);
    }
}

int fz_jpeg_use_cmyk_profile(fz_jpeg_reader *reader, const uint8_t *icc, size_t length, int intent, int bpc,
                             char *message) {
    struct jpeg_decompress_struct *c = &reader->cinfo;
    if (c->out_color_space != JCS_CMYK) {
        snprintf(message, FZ_MESSAGE_MAX, "the image is not CMYK");
        return FZ_ERROR;
    }
    fz_color_transform *t = NULL;
    if (fz_color_cmyk_to_srgb_create(icc, length, c->saw_Adobe_marker, intent, bpc, &t, message) != FZ_OK) return FZ_ERROR;
    fz_color_free(reader->cmyk);
    reader->cmyk = t;
    return FZ_OK;
}

int fz_jpeg_read_rows(fz_jpeg_reader *reader, uint8_t *rows, uint32_t count, size_t stride,
                      uint32_t *done) {
    volatile uint32_t i = 0;
    *done = 0;
    if (setjmp(reader->error.jump)) {
        *done = i;
        return FZ_ERROR;
    }
    struct jpeg_decompress_struct *c = &reader->cinfo;
    int inverted = c->saw_Adobe_marker;
    while (i < count) {
        uint8_t *dst = rows + (size_t)i * stride;
        JSAMPROW row = c->out_color_space == JCS_CMYK ? reader->scratch : dst;
        if (jpeg_read_scanlines(c, &row, 1) != 1) {
            fz_jpeg_fail(&reader->error, FZ_JPEG_TRUNCATED, "JPEG data ended early");
            *done = i;
            return FZ_ERROR;
        }
        if (c->out_color_space == JCS_CMYK) {
            if (reader->cmyk != NULL)
                fz_color_apply(reader->cmyk, row, dst, c->output_width);
            else
                fz_cmyk_to_rgb(row, dst, c->output_width, inverted);
        }
        i++;
    }
    *done = i;
    // After the last row, read on to EOI as djpeg does, so damage after the last scanline
    // (junk where EOI should be, a second SOF, a missing EOI) is found: strict mode turns
    // libjpeg's warnings into errors (fz_emit_message). A crop that stops early never gets
    // here and keeps its speed.
    if (c->output_scanline >= c->output_height) jpeg_finish_decompress(c);
    return FZ_OK;
}

void fz_jpeg_reader_free(fz_jpeg_reader *reader) {
    if (reader == NULL) return;
    // jpeg_destroy never errors; abort is implied (we stop after the rows we need).
    jpeg_destroy_decompress(&reader->cinfo);
    free(reader->icc);
    fz_color_free(reader->cmyk);
    free(reader);
}

// ---------------------------------------------------------------------------------------

struct fz_jpeg_writer {
    struct jpeg_compress_struct cinfo;
    struct fz_error_manager error;
    int warnings;
    char message[FZ_MESSAGE_MAX];
};


int fz_jpeg_writer_begin(FILE *file, const fz_jpeg_spec *spec, fz_jpeg_writer **out) {
    fz_jpeg_writer *writer = calloc(1, sizeof *writer);
    *out = writer;
    if (writer == NULL) return FZ_ERROR;
    writer->cinfo.err = jpeg_std_error(&writer->error.pub);
    writer->error.pub.error_exit = fz_error_exit;
    writer->error.pub.emit_message = fz_emit_message;
    writer->error.message = writer->message;
    writer->error.warnings = &writer->warnings;
    writer->error.strict = 0;
    if (setjmp(writer->error.jump)) return FZ_ERROR;
    struct jpeg_compress_struct *c = &writer->cinfo;
    jpeg_create_compress(c);
    jpeg_stdio_dest(c, file);
    c->image_width = spec->width;
    c->image_height = spec->height;
    c->input_components = spec->channels;
    c->in_color_space = spec->channels == 1 ? JCS_GRAYSCALE : spec->channels == 4 ? JCS_CMYK : JCS_RGB;
    jpeg_set_defaults(c);  // CMYK input: stored as CMYK with an Adobe marker
    if (spec->channels == 4 && spec->ycck) jpeg_set_colorspace(c, JCS_YCCK);
    if (spec->channels == 3 && spec->rgb_coded) jpeg_set_colorspace(c, JCS_RGB);
    jpeg_set_quality(c, spec->quality, TRUE);
    if (spec->channels >= 3) {
        int h = 1, v = 1;
        switch (spec->subsampling) {
        case 422: h = 2; break;
        case 420: h = 2; v = 2; break;
        case 440: v = 2; break;
        case 411: h = 4; break;
        default: break;
        }
        c->comp_info[0].h_samp_factor = h;
        c->comp_info[0].v_samp_factor = v;
        // YCCK keeps K at full resolution, like luma.
        if (spec->channels == 4 && spec->ycck) {
            c->comp_info[3].h_samp_factor = h;
            c->comp_info[3].v_samp_factor = v;
        }
    }
    if (spec->progressive) jpeg_simple_progression(c);
    c->arith_code = spec->arithmetic ? TRUE : FALSE;
    c->optimize_coding = spec->arithmetic ? FALSE : TRUE;
    c->restart_in_rows = spec->restart_rows;
    // Fixed output bytes: no timestamps anywhere.
    jpeg_start_compress(c, TRUE);
    if (spec->app1 != NULL && spec->app1_length > 0)
        jpeg_write_marker(c, JPEG_APP0 + 1, spec->app1, spec->app1_length);
    if (spec->app1_xmp != NULL && spec->app1_xmp_length > 0)
        jpeg_write_marker(c, JPEG_APP0 + 1, spec->app1_xmp, spec->app1_xmp_length);
    if (spec->app13 != NULL && spec->app13_length > 0)
        jpeg_write_marker(c, JPEG_APP0 + 13, spec->app13, spec->app13_length);
    if (spec->icc != NULL && spec->icc_length > 0)
        jpeg_write_icc_profile(c, spec->icc, spec->icc_length);  // split into 65519-byte APP2 segments
    return FZ_OK;
}

int fz_jpeg_writer_rows(fz_jpeg_writer *writer, const uint8_t *rows, uint32_t count,
                        size_t stride) {
    if (setjmp(writer->error.jump)) return FZ_ERROR;
    for (uint32_t i = 0; i < count; i++) {
        JSAMPROW row = (JSAMPROW)(rows + (size_t)i * stride);
        jpeg_write_scanlines(&writer->cinfo, &row, 1);
    }
    return FZ_OK;
}

int fz_jpeg_writer_end(fz_jpeg_writer *writer) {
    if (setjmp(writer->error.jump)) return FZ_ERROR;
    jpeg_finish_compress(&writer->cinfo);
    return FZ_OK;
}

const char *fz_jpeg_writer_message(const fz_jpeg_writer *writer) { return writer->message; }
fz_jpeg_failure fz_jpeg_writer_failure_of(const fz_jpeg_writer *writer) {
    return writer->error.failure ? writer->error.failure : FZ_JPEG_CORRUPT;
}

void fz_jpeg_writer_free(fz_jpeg_writer *writer) {
    if (writer == NULL) return;
    jpeg_destroy_compress(&writer->cinfo);
    free(writer);
}
