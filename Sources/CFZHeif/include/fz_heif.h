// fz_heif.h: libheif, opened on first use (fz_heif_loader.c says why). Each fz_heif_NAME
// has the prototype of libheif's heif_NAME and forwards to it; Swift calls these, and
// heif.h (included for its types and constants) is never linked.
#ifndef FZ_HEIF_H
#define FZ_HEIF_H

#include <libheif/heif.h>

#ifdef __cplusplus
extern "C" {
#endif

static void fz_heif_open(void);
static void *fz_heif_symbol(const char *name);
struct heif_error fz_heif_context_add_exif_metadata(struct heif_context* a0, const struct heif_image_handle* a1, const void* a2, int a3);
struct heif_error fz_heif_context_add_XMP_metadata(struct heif_context* a0, const struct heif_image_handle* a1, const void* a2, int a3);
struct heif_context* fz_heif_context_alloc(void);
struct heif_error fz_heif_context_encode_image(struct heif_context* a0, const struct heif_image* a1, struct heif_encoder* a2, const struct heif_encoding_options* a3, struct heif_image_handle** a4);
void fz_heif_context_free(struct heif_context* a0);
struct heif_error fz_heif_context_get_encoder_for_format(struct heif_context* a0, enum heif_compression_format a1, struct heif_encoder** a2);
struct heif_error fz_heif_context_get_primary_image_handle(struct heif_context* a0, struct heif_image_handle** a1);
struct heif_error fz_heif_context_read_from_memory_without_copy(struct heif_context* a0, const void* a1, size_t a2, const struct heif_reading_options* a3);
void fz_heif_context_set_max_decoding_threads(struct heif_context* a0, int a1);
struct heif_error fz_heif_context_write(struct heif_context* a0, struct heif_writer* a1, void* a2);
struct heif_error fz_heif_decode_image(const struct heif_image_handle* a0, struct heif_image** a1, enum heif_colorspace a2, enum heif_chroma a3, const struct heif_decoding_options* a4);
struct heif_decoding_options* fz_heif_decoding_options_alloc(void);
void fz_heif_decoding_options_free(struct heif_decoding_options* a0);
void fz_heif_encoder_release(struct heif_encoder* a0);
struct heif_encoding_options* fz_heif_encoding_options_alloc(void);
void fz_heif_encoding_options_free(struct heif_encoding_options* a0);
struct heif_error fz_heif_encoder_set_lossless(struct heif_encoder* a0, int a1);
struct heif_error fz_heif_encoder_set_lossy_quality(struct heif_encoder* a0, int a1);
struct heif_error fz_heif_image_add_plane(struct heif_image* a0, enum heif_channel a1, int a2, int a3, int a4);
struct heif_error fz_heif_image_create(int a0, int a1, enum heif_colorspace a2, enum heif_chroma a3, struct heif_image** a4);
int fz_heif_image_get_bits_per_pixel_range(const struct heif_image* a0, enum heif_channel a1);
int fz_heif_image_get_height(const struct heif_image* a0, enum heif_channel a1);
uint8_t* fz_heif_image_get_plane(struct heif_image* a0, enum heif_channel a1, int* a2);
const uint8_t* fz_heif_image_get_plane_readonly(const struct heif_image* a0, enum heif_channel a1, int* a2);
int fz_heif_image_get_width(const struct heif_image* a0, enum heif_channel a1);
enum heif_color_profile_type fz_heif_image_handle_get_color_profile_type(const struct heif_image_handle* a0);
int fz_heif_image_handle_get_height(const struct heif_image_handle* a0);
int fz_heif_image_handle_get_ispe_height(const struct heif_image_handle* a0);
int fz_heif_image_handle_get_ispe_width(const struct heif_image_handle* a0);
int fz_heif_image_handle_get_list_of_metadata_block_IDs(const struct heif_image_handle* a0, const char* a1, heif_item_id* a2, int a3);
int fz_heif_image_handle_get_list_of_auxiliary_image_IDs(const struct heif_image_handle* a0, int a1, heif_item_id* a2, int a3);
struct heif_error fz_heif_image_handle_get_auxiliary_image_handle(const struct heif_image_handle* a0, heif_item_id a1, struct heif_image_handle** a2);
int fz_heif_image_handle_get_list_of_thumbnail_IDs(const struct heif_image_handle* a0, heif_item_id* a1, int a2);
int fz_heif_image_handle_get_luma_bits_per_pixel(const struct heif_image_handle* a0);
struct heif_error fz_heif_image_handle_get_metadata(const struct heif_image_handle* a0, heif_item_id a1, void* a2);
size_t fz_heif_image_handle_get_metadata_size(const struct heif_image_handle* a0, heif_item_id a1);
const char* fz_heif_image_handle_get_metadata_content_type(const struct heif_image_handle* a0, heif_item_id a1);
struct heif_error fz_heif_image_handle_get_nclx_color_profile(const struct heif_image_handle* a0, struct heif_color_profile_nclx** a1);
int fz_heif_image_handle_get_number_of_thumbnails(const struct heif_image_handle* a0);
struct heif_error fz_heif_image_handle_get_raw_color_profile(const struct heif_image_handle* a0, void* a1);
size_t fz_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle* a0);
struct heif_error fz_heif_image_handle_get_thumbnail(const struct heif_image_handle* a0, heif_item_id a1, struct heif_image_handle** a2);
int fz_heif_image_handle_get_width(const struct heif_image_handle* a0);
int fz_heif_image_handle_has_alpha_channel(const struct heif_image_handle* a0);
void fz_heif_image_handle_release(const struct heif_image_handle* a0);
void fz_heif_image_release(const struct heif_image* a0);
struct heif_error fz_heif_image_set_nclx_color_profile(struct heif_image* a0, const struct heif_color_profile_nclx* a1);
struct heif_error fz_heif_image_set_raw_color_profile(struct heif_image* a0, const char* a1, const void* a2, const size_t a3);
struct heif_color_profile_nclx* fz_heif_nclx_color_profile_alloc(void);
void fz_heif_nclx_color_profile_free(struct heif_color_profile_nclx* a0);

// Reading a file held in memory through heif_context_read_from_reader. libheif 1.15 reads
// every item's data when it opens a file (a 200 MP grid: all 90 MB of tiles): through this
// reader it copies each piece out, and for a mapped file (`drop`) the pages it has read are
// given back (madvise MADV_DONTNEED; they stay in the page cache), so opening a file does not
// make it resident. `state` must outlive the context.
typedef struct fz_heif_memory_reader {
    const uint8_t *base;
    int64_t size;
    int64_t position;
    int drop;
    struct heif_reader reader;
} fz_heif_memory_reader;
struct heif_error fz_heif_context_read_memory(struct heif_context *ctx, fz_heif_memory_reader *state, const void *base,
                                              size_t size, int drop);

/* Whether libheif opens and has every function the forwarders call: 1, or 0 with the dlerror
   text in `why` (fz_loader_available, checked once). Asked before the first forwarder. */
int fz_heif_available(char *why, size_t size);
/* The soname of library `slot` (0, 1...), or NULL past the last. */
const char *fz_heif_soname(int slot);

#ifdef __cplusplus
}
#endif
#endif
