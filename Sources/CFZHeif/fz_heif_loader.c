// libheif, loaded on first use. libheif brings libde265, libx265, libaom, libdav1d and
// libstdc++ with it, and loading them at start-up cost every run about 5 ms of CPU and 5 MB
// of resident memory (libde265 builds its tables as it loads), HEIF or not. So forcezoom
// does not link libheif: each libheif function it calls has a forwarder here, fz_heif_NAME for
// libheif's heif_NAME, which calls that function in libheif.so.1, opened with dlopen the first
// time one is called. The forwarders have names of our own so that this binary defines no
// libheif symbol: a program (or a library loaded into it) that links libheif itself gets the
// real functions, not ours.
//
// One forwarder per function HEIFCodec.swift calls, declared in fz_heif.h with heif.h's
// prototype (libheif 1.15; FZ_HEIF's cast checks each against heif.h at compile time). A call
// to a libheif function without a forwarder fails to link. Without libheif.so.1 only HEIF
// and AVIF files fail: fz_heif_available is asked first (fz_loader.h, FormatLibrary.swift).
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fz_heif.h"
#include "fz_loader.h"

// Every symbol the forwarders below use (fz_loader_available resolves them all before the
// first call; LibraryTableTests checks this table against the forwarders).
static const fz_loader_entry fz_heif_symbols[] = {
    {0, "heif_context_add_exif_metadata"},
    {0, "heif_context_add_XMP_metadata"},
    {0, "heif_context_alloc"},
    {0, "heif_context_encode_image"},
    {0, "heif_context_free"},
    {0, "heif_context_get_encoder_for_format"},
    {0, "heif_context_get_primary_image_handle"},
    {0, "heif_context_read_from_memory_without_copy"},
    {0, "heif_context_set_max_decoding_threads"},
    {0, "heif_context_write"},
    {0, "heif_decode_image"},
    {0, "heif_decoding_options_alloc"},
    {0, "heif_decoding_options_free"},
    {0, "heif_encoder_release"},
    {0, "heif_encoding_options_alloc"},
    {0, "heif_encoding_options_free"},
    {0, "heif_encoder_set_lossless"},
    {0, "heif_encoder_set_lossy_quality"},
    {0, "heif_image_add_plane"},
    {0, "heif_image_create"},
    {0, "heif_image_get_bits_per_pixel_range"},
    {0, "heif_image_get_height"},
    {0, "heif_image_get_plane"},
    {0, "heif_image_get_plane_readonly"},
    {0, "heif_image_get_width"},
    {0, "heif_image_handle_get_color_profile_type"},
    {0, "heif_image_handle_get_height"},
    {0, "heif_image_handle_get_ispe_height"},
    {0, "heif_image_handle_get_ispe_width"},
    {0, "heif_image_handle_get_list_of_metadata_block_IDs"},
    {0, "heif_image_handle_get_list_of_auxiliary_image_IDs"},
    {0, "heif_image_handle_get_auxiliary_image_handle"},
    {0, "heif_image_handle_get_list_of_thumbnail_IDs"},
    {0, "heif_image_handle_get_luma_bits_per_pixel"},
    {0, "heif_image_handle_get_metadata"},
    {0, "heif_image_handle_get_metadata_size"},
    {0, "heif_image_handle_get_metadata_content_type"},
    {0, "heif_image_handle_get_nclx_color_profile"},
    {0, "heif_image_handle_get_number_of_thumbnails"},
    {0, "heif_image_handle_get_raw_color_profile"},
    {0, "heif_image_handle_get_raw_color_profile_size"},
    {0, "heif_image_handle_get_thumbnail"},
    {0, "heif_image_handle_get_width"},
    {0, "heif_image_handle_has_alpha_channel"},
    {0, "heif_image_handle_release"},
    {0, "heif_image_release"},
    {0, "heif_image_set_nclx_color_profile"},
    {0, "heif_image_set_raw_color_profile"},
    {0, "heif_nclx_color_profile_alloc"},
    {0, "heif_nclx_color_profile_free"},
    {0, "heif_context_read_from_reader"},
};

static fz_loader fz_heif_loader = {
    .format = "HEIF",
    .count = 1,
    .names = {"libheif.so.1"},
    .symbols = fz_heif_symbols,
    .symbol_count = sizeof fz_heif_symbols / sizeof fz_heif_symbols[0],
};

int fz_heif_available(char *why, size_t size) { return fz_loader_available(&fz_heif_loader, why, size); }
const char *fz_heif_soname(int slot) { return fz_loader_soname(&fz_heif_loader, slot); }

#define FZ_HEIF(name) FZ_LOADER_SYMBOL(&fz_heif_loader, 0, name)

struct heif_error fz_heif_context_add_exif_metadata(struct heif_context* a0, const struct heif_image_handle* a1, const void* a2, int a3) {
    return FZ_HEIF(heif_context_add_exif_metadata)(a0, a1, a2, a3);
}
struct heif_error fz_heif_context_add_XMP_metadata(struct heif_context* a0, const struct heif_image_handle* a1, const void* a2, int a3) {
    return FZ_HEIF(heif_context_add_XMP_metadata)(a0, a1, a2, a3);
}
struct heif_context* fz_heif_context_alloc(void) {
    return FZ_HEIF(heif_context_alloc)();
}
struct heif_error fz_heif_context_encode_image(struct heif_context* a0, const struct heif_image* a1, struct heif_encoder* a2, const struct heif_encoding_options* a3, struct heif_image_handle** a4) {
    return FZ_HEIF(heif_context_encode_image)(a0, a1, a2, a3, a4);
}
void fz_heif_context_free(struct heif_context* a0) {
    FZ_HEIF(heif_context_free)(a0);
}
struct heif_error fz_heif_context_get_encoder_for_format(struct heif_context* a0, enum heif_compression_format a1, struct heif_encoder** a2) {
    return FZ_HEIF(heif_context_get_encoder_for_format)(a0, a1, a2);
}
struct heif_error fz_heif_context_get_primary_image_handle(struct heif_context* a0, struct heif_image_handle** a1) {
    return FZ_HEIF(heif_context_get_primary_image_handle)(a0, a1);
}
struct heif_error fz_heif_context_read_from_memory_without_copy(struct heif_context* a0, const void* a1, size_t a2, const struct heif_reading_options* a3) {
    return FZ_HEIF(heif_context_read_from_memory_without_copy)(a0, a1, a2, a3);
}
void fz_heif_context_set_max_decoding_threads(struct heif_context* a0, int a1) {
    FZ_HEIF(heif_context_set_max_decoding_threads)(a0, a1);
}
struct heif_error fz_heif_context_write(struct heif_context* a0, struct heif_writer* a1, void* a2) {
    return FZ_HEIF(heif_context_write)(a0, a1, a2);
}
struct heif_error fz_heif_decode_image(const struct heif_image_handle* a0, struct heif_image** a1, enum heif_colorspace a2, enum heif_chroma a3, const struct heif_decoding_options* a4) {
    return FZ_HEIF(heif_decode_image)(a0, a1, a2, a3, a4);
}
struct heif_decoding_options* fz_heif_decoding_options_alloc(void) {
    return FZ_HEIF(heif_decoding_options_alloc)();
}
void fz_heif_decoding_options_free(struct heif_decoding_options* a0) {
    FZ_HEIF(heif_decoding_options_free)(a0);
}
void fz_heif_encoder_release(struct heif_encoder* a0) {
    FZ_HEIF(heif_encoder_release)(a0);
}
struct heif_encoding_options* fz_heif_encoding_options_alloc(void) {
    return FZ_HEIF(heif_encoding_options_alloc)();
}
void fz_heif_encoding_options_free(struct heif_encoding_options* a0) {
    FZ_HEIF(heif_encoding_options_free)(a0);
}
struct heif_error fz_heif_encoder_set_lossless(struct heif_encoder* a0, int a1) {
    return FZ_HEIF(heif_encoder_set_lossless)(a0, a1);
}
struct heif_error fz_heif_encoder_set_lossy_quality(struct heif_encoder* a0, int a1) {
    return FZ_HEIF(heif_encoder_set_lossy_quality)(a0, a1);
}
struct heif_error fz_heif_image_add_plane(struct heif_image* a0, enum heif_channel a1, int a2, int a3, int a4) {
    return FZ_HEIF(heif_image_add_plane)(a0, a1, a2, a3, a4);
}
struct heif_error fz_heif_image_create(int a0, int a1, enum heif_colorspace a2, enum heif_chroma a3, struct heif_image** a4) {
    return FZ_HEIF(heif_image_create)(a0, a1, a2, a3, a4);
}
int fz_heif_image_get_bits_per_pixel_range(const struct heif_image* a0, enum heif_channel a1) {
    return FZ_HEIF(heif_image_get_bits_per_pixel_range)(a0, a1);
}
int fz_heif_image_get_height(const struct heif_image* a0, enum heif_channel a1) {
    return FZ_HEIF(heif_image_get_height)(a0, a1);
}
uint8_t* fz_heif_image_get_plane(struct heif_image* a0, enum heif_channel a1, int* a2) {
    return FZ_HEIF(heif_image_get_plane)(a0, a1, a2);
}
const uint8_t* fz_heif_image_get_plane_readonly(const struct heif_image* a0, enum heif_channel a1, int* a2) {
    return FZ_HEIF(heif_image_get_plane_readonly)(a0, a1, a2);
}
int fz_heif_image_get_width(const struct heif_image* a0, enum heif_channel a1) {
    return FZ_HEIF(heif_image_get_width)(a0, a1);
}
enum heif_color_profile_type fz_heif_image_handle_get_color_profile_type(const struct heif_image_handle* a0) {
    return FZ_HEIF(heif_image_handle_get_color_profile_type)(a0);
}
int fz_heif_image_handle_get_height(const struct heif_image_handle* a0) {
    return FZ_HEIF(heif_image_handle_get_height)(a0);
}
int fz_heif_image_handle_get_ispe_height(const struct heif_image_handle* a0) {
    return FZ_HEIF(heif_image_handle_get_ispe_height)(a0);
}
int fz_heif_image_handle_get_ispe_width(const struct heif_image_handle* a0) {
    return FZ_HEIF(heif_image_handle_get_ispe_width)(a0);
}
int fz_heif_image_handle_get_list_of_metadata_block_IDs(const struct heif_image_handle* a0, const char* a1, heif_item_id* a2, int a3) {
    return FZ_HEIF(heif_image_handle_get_list_of_metadata_block_IDs)(a0, a1, a2, a3);
}
int fz_heif_image_handle_get_list_of_auxiliary_image_IDs(const struct heif_image_handle* a0, int a1, heif_item_id* a2, int a3) {
    return FZ_HEIF(heif_image_handle_get_list_of_auxiliary_image_IDs)(a0, a1, a2, a3);
}
struct heif_error fz_heif_image_handle_get_auxiliary_image_handle(const struct heif_image_handle* a0, heif_item_id a1, struct heif_image_handle** a2) {
    return FZ_HEIF(heif_image_handle_get_auxiliary_image_handle)(a0, a1, a2);
}
int fz_heif_image_handle_get_list_of_thumbnail_IDs(const struct heif_image_handle* a0, heif_item_id* a1, int a2) {
    return FZ_HEIF(heif_image_handle_get_list_of_thumbnail_IDs)(a0, a1, a2);
}
int fz_heif_image_handle_get_luma_bits_per_pixel(const struct heif_image_handle* a0) {
    return FZ_HEIF(heif_image_handle_get_luma_bits_per_pixel)(a0);
}
struct heif_error fz_heif_image_handle_get_metadata(const struct heif_image_handle* a0, heif_item_id a1, void* a2) {
    return FZ_HEIF(heif_image_handle_get_metadata)(a0, a1, a2);
}
size_t fz_heif_image_handle_get_metadata_size(const struct heif_image_handle* a0, heif_item_id a1) {
    return FZ_HEIF(heif_image_handle_get_metadata_size)(a0, a1);
}
const char* fz_heif_image_handle_get_metadata_content_type(const struct heif_image_handle* a0, heif_item_id a1) {
    return FZ_HEIF(heif_image_handle_get_metadata_content_type)(a0, a1);
}
struct heif_error fz_heif_image_handle_get_nclx_color_profile(const struct heif_image_handle* a0, struct heif_color_profile_nclx** a1) {
    return FZ_HEIF(heif_image_handle_get_nclx_color_profile)(a0, a1);
}
int fz_heif_image_handle_get_number_of_thumbnails(const struct heif_image_handle* a0) {
    return FZ_HEIF(heif_image_handle_get_number_of_thumbnails)(a0);
}
struct heif_error fz_heif_image_handle_get_raw_color_profile(const struct heif_image_handle* a0, void* a1) {
    return FZ_HEIF(heif_image_handle_get_raw_color_profile)(a0, a1);
}
size_t fz_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle* a0) {
    return FZ_HEIF(heif_image_handle_get_raw_color_profile_size)(a0);
}
struct heif_error fz_heif_image_handle_get_thumbnail(const struct heif_image_handle* a0, heif_item_id a1, struct heif_image_handle** a2) {
    return FZ_HEIF(heif_image_handle_get_thumbnail)(a0, a1, a2);
}
int fz_heif_image_handle_get_width(const struct heif_image_handle* a0) {
    return FZ_HEIF(heif_image_handle_get_width)(a0);
}
int fz_heif_image_handle_has_alpha_channel(const struct heif_image_handle* a0) {
    return FZ_HEIF(heif_image_handle_has_alpha_channel)(a0);
}
void fz_heif_image_handle_release(const struct heif_image_handle* a0) {
    FZ_HEIF(heif_image_handle_release)(a0);
}
void fz_heif_image_release(const struct heif_image* a0) {
    FZ_HEIF(heif_image_release)(a0);
}
struct heif_error fz_heif_image_set_nclx_color_profile(struct heif_image* a0, const struct heif_color_profile_nclx* a1) {
    return FZ_HEIF(heif_image_set_nclx_color_profile)(a0, a1);
}
struct heif_error fz_heif_image_set_raw_color_profile(struct heif_image* a0, const char* a1, const void* a2, const size_t a3) {
    return FZ_HEIF(heif_image_set_raw_color_profile)(a0, a1, a2, a3);
}
struct heif_color_profile_nclx* fz_heif_nclx_color_profile_alloc(void) {
    return FZ_HEIF(heif_nclx_color_profile_alloc)();
}
void fz_heif_nclx_color_profile_free(struct heif_color_profile_nclx* a0) {
    FZ_HEIF(heif_nclx_color_profile_free)(a0);
}

// fz_heif_context_read_memory (fz_heif.h says why): a heif_reader over bytes in memory.
static int64_t fz_heif_memory_position(void *userdata) { return ((fz_heif_memory_reader *)userdata)->position; }

static int fz_heif_memory_read(void *data, size_t size, void *userdata) {
    fz_heif_memory_reader *r = userdata;
    if (r->position < 0 || (int64_t)size > r->size - r->position) return 1;
    if (size == 0) return 0;  // libheif asks for 0 bytes into a null buffer, and memcpy(NULL) is undefined
    memcpy(data, r->base + r->position, size);
    if (r->drop && size >= 65536) {
        // The whole pages inside what was read go back; the pages at either end may hold
        // bytes read next.
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t start = ((uintptr_t)(r->base + r->position) + page - 1) & ~(page - 1);
        uintptr_t end = ((uintptr_t)(r->base + r->position) + size) & ~(page - 1);
        if (end > start) madvise((void *)start, end - start, MADV_DONTNEED);
    }
    r->position += (int64_t)size;
    return 0;
}

static int fz_heif_memory_seek(int64_t position, void *userdata) {
    fz_heif_memory_reader *r = userdata;
    if (position < 0 || position > r->size) return 1;
    r->position = position;
    return 0;
}

static enum heif_reader_grow_status fz_heif_memory_wait(int64_t target, void *userdata) {
    return target <= ((fz_heif_memory_reader *)userdata)->size ? heif_reader_grow_status_size_reached
                                                                 : heif_reader_grow_status_size_beyond_eof;
}

struct heif_error fz_heif_context_read_memory(struct heif_context *ctx, fz_heif_memory_reader *state, const void *base,
                                              size_t size, int drop) {
    state->base = base;
    state->size = (int64_t)size;
    state->position = 0;
    state->drop = drop;
    state->reader.reader_api_version = 1;
    state->reader.get_position = fz_heif_memory_position;
    state->reader.read = fz_heif_memory_read;
    state->reader.seek = fz_heif_memory_seek;
    state->reader.wait_for_file_size = fz_heif_memory_wait;
    return FZ_HEIF(heif_context_read_from_reader)(ctx, &state->reader, state, NULL);
}
