// fz_tiff_lib.h: the libtiff functions fz_tiff.c calls, opened on first use (fz_tiff_loader.c
// says why). Each fz_NAME has libtiff's prototype for NAME and forwards to it; the three
// varargs accessors forward to their va_list forms. Remade by Tools/shims/make-forwarders.py.
#ifndef FZ_TIFF_LIB_H
#define FZ_TIFF_LIB_H

#include <stdarg.h>
#include <tiffio.h>

TIFF * fz_TIFFClientOpenExt(const char * a0, const char * a1, thandle_t a2, TIFFReadWriteProc a3, TIFFReadWriteProc a4, TIFFSeekProc a5, TIFFCloseProc a6, TIFFSizeProc a7, TIFFMapFileProc a8, TIFFUnmapFileProc a9, TIFFOpenOptions *opts);
void fz_TIFFClose(TIFF *tif);
uint32_t fz_TIFFComputeStrip(TIFF * a0, uint32_t a1, uint16_t a2);
uint32_t fz_TIFFComputeTile(TIFF *tif, uint32_t x, uint32_t y, uint32_t z, uint16_t s);
int fz_TIFFIsTiled(TIFF * a0);
TIFFOpenOptions * fz_TIFFOpenOptionsAlloc(void);
void fz_TIFFOpenOptionsFree(TIFFOpenOptions * a0);
void fz_TIFFOpenOptionsSetErrorHandlerExtR(TIFFOpenOptions *opts, TIFFErrorHandlerExtR handler, void *errorhandler_user_data);
void fz_TIFFOpenOptionsSetMaxSingleMemAlloc(TIFFOpenOptions *opts, tmsize_t max_single_mem_alloc);
void fz_TIFFOpenOptionsSetWarningHandlerExtR(TIFFOpenOptions *opts, TIFFErrorHandlerExtR handler, void *warnhandler_user_data);
int fz_TIFFRGBAImageBegin(TIFFRGBAImage * a0, TIFF * a1, int a2, char a3[1024]);
void fz_TIFFRGBAImageEnd(TIFFRGBAImage * a0);
int fz_TIFFRGBAImageGet(TIFFRGBAImage * a0, uint32_t * a1, uint32_t a2, uint32_t a3);
int fz_TIFFRGBAImageOK(TIFF * a0, char a1[1024]);
int fz_TIFFReadDirectory(TIFF *tif);
tmsize_t fz_TIFFReadEncodedStrip(TIFF *tif, uint32_t strip, void *buf, tmsize_t size);
tmsize_t fz_TIFFReadEncodedTile(TIFF *tif, uint32_t tile, void *buf, tmsize_t size);
int fz_TIFFSetDirectory(TIFF * a0, tdir_t a1);
TIFFErrorHandler fz_TIFFSetErrorHandler(TIFFErrorHandler a0);
int fz_TIFFSetSubDirectory(TIFF * a0, uint64_t a1);
TIFFErrorHandler fz_TIFFSetWarningHandler(TIFFErrorHandler a0);
tmsize_t fz_TIFFStripSize(TIFF *tif);
tmsize_t fz_TIFFTileSize(TIFF *tif);
int fz_TIFFVGetField(TIFF *tif, uint32_t tag, va_list ap);
int fz_TIFFVGetFieldDefaulted(TIFF *tif, uint32_t tag, va_list ap);
int fz_TIFFVSetField(TIFF * a0, uint32_t a1, va_list a2);
int fz_TIFFGetField(TIFF *tif, uint32_t tag, ...);
int fz_TIFFGetFieldDefaulted(TIFF *tif, uint32_t tag, ...);
int fz_TIFFSetField(TIFF *tif, uint32_t tag, ...);

#endif
