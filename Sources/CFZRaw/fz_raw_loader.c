// libraw, loaded on first use. libraw_r brings libgomp (OpenMP) with it, and it is C++ with
// thousands of symbols to bind: loading and relocating them cost every forcezoom run about
// 1 ms before main, camera RAW or not (a one-tile HEIC crop takes about 25 ms in all). So
// forcezoom does not link libraw: each function RAWCodec.swift calls has a forwarder here,
// fz_NAME for libraw's NAME, which calls that function in libraw_r.so.SHLIB (the thread-safe
// build, soname from the headers' LIBRAW_SHLIB_CURRENT, so the library is the one compiled
// against), opened with dlopen the first time one is called, as CFZTIFF does for libtiff.
// The forwarders have names of our own so that this binary defines no libraw symbol.
// Without the library only camera RAW files fail: fz_raw_available is asked first
// (fz_loader.h, FormatLibrary.swift).
#include "fz_loader.h"
#include "fz_raw.h"

#define FZ_STR2(x) #x
#define FZ_STR(x) FZ_STR2(x)

// Every symbol the forwarders below use (fz_loader_available resolves them all before the
// first call; LibraryTableTests checks this table against the forwarders).
static const fz_loader_entry fz_raw_symbols[] = {
    {0, "libraw_adjust_sizes_info_only"},
    {0, "libraw_close"},
    {0, "libraw_dcraw_clear_mem"},
    {0, "libraw_dcraw_make_mem_image"},
    {0, "libraw_dcraw_process"},
    {0, "libraw_init"},
    {0, "libraw_open_buffer"},
    {0, "libraw_open_file"},
    {0, "libraw_recycle"},
    {0, "libraw_set_dataerror_handler"},
    {0, "libraw_set_memerror_handler"},
    {0, "libraw_strerror"},
    {0, "libraw_unpack"},
    {0, "libraw_unpack_thumb"},
};

static fz_loader fz_raw_loader = {
    .format = "camera RAW",
    .count = 1,
    .names = {"libraw_r.so." FZ_STR(LIBRAW_SHLIB_CURRENT)},
    .symbols = fz_raw_symbols,
    .symbol_count = sizeof fz_raw_symbols / sizeof fz_raw_symbols[0],
};

int fz_raw_available(char *why, size_t size) { return fz_loader_available(&fz_raw_loader, why, size); }
const char *fz_raw_soname(int slot) { return fz_loader_soname(&fz_raw_loader, slot); }

// The function `name` of libraw, looked up once (`slot` is unused: one library).
#define FZ_SYMBOL(slot, name) FZ_LOADER_SYMBOL(&fz_raw_loader, slot, name)

int fz_libraw_adjust_sizes_info_only(libraw_data_t * a0) {
    return FZ_SYMBOL(0, libraw_adjust_sizes_info_only)(a0);
}
void fz_libraw_close(libraw_data_t * a0) {
    FZ_SYMBOL(0, libraw_close)(a0);
}
void fz_libraw_dcraw_clear_mem(libraw_processed_image_t * a0) {
    FZ_SYMBOL(0, libraw_dcraw_clear_mem)(a0);
}
libraw_processed_image_t * fz_libraw_dcraw_make_mem_image(libraw_data_t *lr, int *errc) {
    return FZ_SYMBOL(0, libraw_dcraw_make_mem_image)(lr, errc);
}
int fz_libraw_dcraw_process(libraw_data_t *lr) {
    return FZ_SYMBOL(0, libraw_dcraw_process)(lr);
}
libraw_data_t * fz_libraw_init(unsigned int flags) {
    return FZ_SYMBOL(0, libraw_init)(flags);
}
int fz_libraw_open_buffer(libraw_data_t * a0, void *buffer, size_t size) {
    return FZ_SYMBOL(0, libraw_open_buffer)(a0, buffer, size);
}
int fz_libraw_open_file(libraw_data_t * a0, const char * a1) {
    return FZ_SYMBOL(0, libraw_open_file)(a0, a1);
}
void fz_libraw_recycle(libraw_data_t * a0) {
    FZ_SYMBOL(0, libraw_recycle)(a0);
}
void fz_libraw_set_dataerror_handler(libraw_data_t * a0, data_callback func, void *datap) {
    FZ_SYMBOL(0, libraw_set_dataerror_handler)(a0, func, datap);
}
void fz_libraw_set_memerror_handler(libraw_data_t * a0, memory_callback cb, void *datap) {
    FZ_SYMBOL(0, libraw_set_memerror_handler)(a0, cb, datap);
}
const char * fz_libraw_strerror(int errorcode) {
    return FZ_SYMBOL(0, libraw_strerror)(errorcode);
}
int fz_libraw_unpack(libraw_data_t * a0) {
    return FZ_SYMBOL(0, libraw_unpack)(a0);
}
int fz_libraw_unpack_thumb(libraw_data_t * a0) {
    return FZ_SYMBOL(0, libraw_unpack_thumb)(a0);
}
