// fz_raw.h: the libraw functions RAWCodec.swift calls, opened on first use (fz_raw_loader.c
// says why). Each fz_NAME has libraw's prototype for NAME and forwards to it. Remade by
// Tools/shims/make-forwarders.py Sources/CRaw/shim.h NAME...
#ifndef FZ_RAW_H
#define FZ_RAW_H

#include <libraw/libraw.h>

int fz_libraw_adjust_sizes_info_only(libraw_data_t * a0);
void fz_libraw_close(libraw_data_t * a0);
void fz_libraw_dcraw_clear_mem(libraw_processed_image_t * a0);
libraw_processed_image_t * fz_libraw_dcraw_make_mem_image(libraw_data_t *lr, int *errc);
int fz_libraw_dcraw_process(libraw_data_t *lr);
libraw_data_t * fz_libraw_init(unsigned int flags);
int fz_libraw_open_buffer(libraw_data_t * a0, void *buffer, size_t size);
int fz_libraw_open_file(libraw_data_t * a0, const char * a1);
void fz_libraw_recycle(libraw_data_t * a0);
void fz_libraw_set_dataerror_handler(libraw_data_t * a0, data_callback func, void *datap);
void fz_libraw_set_memerror_handler(libraw_data_t * a0, memory_callback cb, void *datap);
const char * fz_libraw_strerror(int errorcode);
int fz_libraw_unpack(libraw_data_t * a0);
int fz_libraw_unpack_thumb(libraw_data_t * a0);

/* Whether libraw opens and has every function the forwarders call: 1, or 0 with the dlerror
   text in `why` (fz_loader_available, checked once). Asked before the first forwarder. */
int fz_raw_available(char *why, size_t size);
/* The soname of library `slot` (0, 1...), or NULL past the last. */
const char *fz_raw_soname(int slot);

#endif
