// libtiff, loaded on first use. libtiff brings libLerc (C++), libjbig, libdeflate, libzstd,
// liblzma, libwebp and libjpeg with it, and loading and relocating them cost every forcezoom
// run about 2 ms before main, TIFF or not. So forcezoom does not link libtiff: each function
// fz_tiff.c calls has a forwarder here, fz_NAME for libtiff's NAME, which calls that function
// in libtiff.so.6, opened with dlopen the first time one is called, as CFZHeif does for
// libheif. libtiff 4.5 (TIFFOpenOptions, which fz_tiff.c needs for its memory limit and
// per-file handlers) is soname 6. The forwarders have names of our own so that this binary
// defines no libtiff symbol. Without the library only TIFF files fail: fz_tiff_available is
// asked first (fz_loader.h, FormatLibrary.swift).
#include "fz_loader.h"
#include "fz_tiff_lib.h"

// Every symbol the forwarders below use (fz_loader_available resolves them all before the
// first call; LibraryTableTests checks this table against the forwarders).
static const fz_loader_entry fz_tiff_symbols[] = {
    {0, "TIFFClientOpenExt"},
    {0, "TIFFClose"},
    {0, "TIFFComputeStrip"},
    {0, "TIFFComputeTile"},
    {0, "TIFFIsTiled"},
    {0, "TIFFOpenOptionsAlloc"},
    {0, "TIFFOpenOptionsFree"},
    {0, "TIFFOpenOptionsSetErrorHandlerExtR"},
    {0, "TIFFOpenOptionsSetMaxSingleMemAlloc"},
    {0, "TIFFOpenOptionsSetWarningHandlerExtR"},
    {0, "TIFFRGBAImageBegin"},
    {0, "TIFFRGBAImageEnd"},
    {0, "TIFFRGBAImageGet"},
    {0, "TIFFRGBAImageOK"},
    {0, "TIFFReadDirectory"},
    {0, "TIFFReadEncodedStrip"},
    {0, "TIFFReadEncodedTile"},
    {0, "TIFFSetDirectory"},
    {0, "TIFFSetErrorHandler"},
    {0, "TIFFSetSubDirectory"},
    {0, "TIFFSetWarningHandler"},
    {0, "TIFFStripSize"},
    {0, "TIFFTileSize"},
    {0, "TIFFVGetField"},
    {0, "TIFFVGetFieldDefaulted"},
    {0, "TIFFVSetField"},
};

static fz_loader fz_tiff_loader = {
    .format = "TIFF",
    .count = 1,
    .names = {"libtiff.so.6"},
    .symbols = fz_tiff_symbols,
    .symbol_count = sizeof fz_tiff_symbols / sizeof fz_tiff_symbols[0],
};

int fz_tiff_available(char *why, size_t size) { return fz_loader_available(&fz_tiff_loader, why, size); }
const char *fz_tiff_soname(int slot) { return fz_loader_soname(&fz_tiff_loader, slot); }

// The function `name` of libtiff, looked up once (`slot` is unused: one library).
#define FZ_SYMBOL(slot, name) FZ_LOADER_SYMBOL(&fz_tiff_loader, slot, name)

TIFF * fz_TIFFClientOpenExt(const char * a0, const char * a1, thandle_t a2, TIFFReadWriteProc a3, TIFFReadWriteProc a4, TIFFSeekProc a5, TIFFCloseProc a6, TIFFSizeProc a7, TIFFMapFileProc a8, TIFFUnmapFileProc a9, TIFFOpenOptions *opts) {
    return FZ_SYMBOL(0, TIFFClientOpenExt)(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, opts);
}
void fz_TIFFClose(TIFF *tif) {
    FZ_SYMBOL(0, TIFFClose)(tif);
}
uint32_t fz_TIFFComputeStrip(TIFF * a0, uint32_t a1, uint16_t a2) {
    return FZ_SYMBOL(0, TIFFComputeStrip)(a0, a1, a2);
}
uint32_t fz_TIFFComputeTile(TIFF *tif, uint32_t x, uint32_t y, uint32_t z, uint16_t s) {
    return FZ_SYMBOL(0, TIFFComputeTile)(tif, x, y, z, s);
}
int fz_TIFFIsTiled(TIFF * a0) {
    return FZ_SYMBOL(0, TIFFIsTiled)(a0);
}
TIFFOpenOptions * fz_TIFFOpenOptionsAlloc(void) {
    return FZ_SYMBOL(0, TIFFOpenOptionsAlloc)();
}
void fz_TIFFOpenOptionsFree(TIFFOpenOptions * a0) {
    FZ_SYMBOL(0, TIFFOpenOptionsFree)(a0);
}
void fz_TIFFOpenOptionsSetErrorHandlerExtR(TIFFOpenOptions *opts, TIFFErrorHandlerExtR handler, void *errorhandler_user_data) {
    FZ_SYMBOL(0, TIFFOpenOptionsSetErrorHandlerExtR)(opts, handler, errorhandler_user_data);
}
void fz_TIFFOpenOptionsSetMaxSingleMemAlloc(TIFFOpenOptions *opts, tmsize_t max_single_mem_alloc) {
    FZ_SYMBOL(0, TIFFOpenOptionsSetMaxSingleMemAlloc)(opts, max_single_mem_alloc);
}
void fz_TIFFOpenOptionsSetWarningHandlerExtR(TIFFOpenOptions *opts, TIFFErrorHandlerExtR handler, void *warnhandler_user_data) {
    FZ_SYMBOL(0, TIFFOpenOptionsSetWarningHandlerExtR)(opts, handler, warnhandler_user_data);
}
int fz_TIFFRGBAImageBegin(TIFFRGBAImage * a0, TIFF * a1, int a2, char a3[1024]) {
    return FZ_SYMBOL(0, TIFFRGBAImageBegin)(a0, a1, a2, a3);
}
void fz_TIFFRGBAImageEnd(TIFFRGBAImage * a0) {
    FZ_SYMBOL(0, TIFFRGBAImageEnd)(a0);
}
int fz_TIFFRGBAImageGet(TIFFRGBAImage * a0, uint32_t * a1, uint32_t a2, uint32_t a3) {
    return FZ_SYMBOL(0, TIFFRGBAImageGet)(a0, a1, a2, a3);
}
int fz_TIFFRGBAImageOK(TIFF * a0, char a1[1024]) {
    return FZ_SYMBOL(0, TIFFRGBAImageOK)(a0, a1);
}
int fz_TIFFReadDirectory(TIFF *tif) {
    return FZ_SYMBOL(0, TIFFReadDirectory)(tif);
}
tmsize_t fz_TIFFReadEncodedStrip(TIFF *tif, uint32_t strip, void *buf, tmsize_t size) {
    return FZ_SYMBOL(0, TIFFReadEncodedStrip)(tif, strip, buf, size);
}
tmsize_t fz_TIFFReadEncodedTile(TIFF *tif, uint32_t tile, void *buf, tmsize_t size) {
    return FZ_SYMBOL(0, TIFFReadEncodedTile)(tif, tile, buf, size);
}
int fz_TIFFSetDirectory(TIFF * a0, tdir_t a1) {
    return FZ_SYMBOL(0, TIFFSetDirectory)(a0, a1);
}
TIFFErrorHandler fz_TIFFSetErrorHandler(TIFFErrorHandler a0) {
    return FZ_SYMBOL(0, TIFFSetErrorHandler)(a0);
}
int fz_TIFFSetSubDirectory(TIFF * a0, uint64_t a1) {
    return FZ_SYMBOL(0, TIFFSetSubDirectory)(a0, a1);
}
TIFFErrorHandler fz_TIFFSetWarningHandler(TIFFErrorHandler a0) {
    return FZ_SYMBOL(0, TIFFSetWarningHandler)(a0);
}
tmsize_t fz_TIFFStripSize(TIFF *tif) {
    return FZ_SYMBOL(0, TIFFStripSize)(tif);
}
tmsize_t fz_TIFFTileSize(TIFF *tif) {
    return FZ_SYMBOL(0, TIFFTileSize)(tif);
}
int fz_TIFFVGetField(TIFF *tif, uint32_t tag, va_list ap) {
    return FZ_SYMBOL(0, TIFFVGetField)(tif, tag, ap);
}
int fz_TIFFVGetFieldDefaulted(TIFF *tif, uint32_t tag, va_list ap) {
    return FZ_SYMBOL(0, TIFFVGetFieldDefaulted)(tif, tag, ap);
}
int fz_TIFFVSetField(TIFF * a0, uint32_t a1, va_list a2) {
    return FZ_SYMBOL(0, TIFFVSetField)(a0, a1, a2);
}

int fz_TIFFGetField(TIFF *tif, uint32_t tag, ...) {
    va_list ap;
    va_start(ap, tag);
    int status = fz_TIFFVGetField(tif, tag, ap);
    va_end(ap);
    return status;
}

int fz_TIFFGetFieldDefaulted(TIFF *tif, uint32_t tag, ...) {
    va_list ap;
    va_start(ap, tag);
    int status = fz_TIFFVGetFieldDefaulted(tif, tag, ap);
    va_end(ap);
    return status;
}

int fz_TIFFSetField(TIFF *tif, uint32_t tag, ...) {
    va_list ap;
    va_start(ap, tag);
    int status = fz_TIFFVSetField(tif, tag, ap);
    va_end(ap);
    return status;
}
