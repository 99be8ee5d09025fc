// fz_loader.h: libraries forcezoom opens with dlopen on their format's first call instead of
// linking them (libheif, libtiff, libraw and the rest: loading and relocating them, and their
// codecs' initialisers, cost every run milliseconds before main, that format or not). Each
// shim has forwarders fz_NAME for the library's NAME (Tools/shims/make-forwarders.py), each
// looking NAME up once through FZ_LOADER_SYMBOL, and a table of every NAME they use.
//
// A missing library (or one without a symbol we call) must fail only the files of its format
// (issue 48): before the first forwarder of a format is called, its Swift side asks
// fz_loader_available, which opens the libraries and resolves every symbol of the table once
// and keeps the answer, and throws a per-file error when it is no. A forwarder whose symbol
// is still missing is then a bug (a call that skipped the check, or a name not in the table,
// which LibraryTableTests catches): it aborts with a message rather than return garbage.
#ifndef FZ_LOADER_H
#define FZ_LOADER_H

#include <stddef.h>
#include <stdint.h>

/* One symbol a forwarder looks up: `name` in library `slot`. */
typedef struct fz_loader_entry {
    int slot;
    const char *name;
} fz_loader_entry;

/* The most libraries one format opens (FFmpeg's four: avformat, avcodec, swscale, avutil). */
#define FZ_LOADER_MAX 4

/* One format's libraries (a codec and its thread runner; FFmpeg's four), opened together the first
   time any is needed. `format` names it in the defensive message. */
typedef struct fz_loader {
    const char *format;
    int count;
    const char *names[FZ_LOADER_MAX];
    /* Every symbol the shim's forwarders use, checked by fz_loader_available. */
    const fz_loader_entry *symbols;
    int symbol_count;
    /* Under the loader lock (fz_loader.c): */
    void *handles[FZ_LOADER_MAX];
    int opened;
    int state; /* 0 not checked, 1 available, -1 not */
    char why[512];
} fz_loader;

/* Whether every library of `loader` opens and every symbol of its table resolves: 1, or 0
   with the first failure's dlerror text in `why` (at most `size` bytes, NUL-terminated).
   Checked once (thread-safe); later calls return the kept answer. */
int fz_loader_available(fz_loader *loader, char *why, size_t size);

/* The soname of library `slot` of `loader`, or NULL past the last. */
const char *fz_loader_soname(const fz_loader *loader, int slot);

/* The function `name` of library `slot` of `loader`, opening them on the first call. When it
   cannot be had (unreachable after fz_loader_available said 1) it prints why and aborts. */
void *fz_loader_symbol(fz_loader *loader, int slot, const char *name);

/* `name` from library `slot` of `loader` (a fz_loader *), looked up once per call site and
   cast to `name`'s own prototype from the library's header, so the compiler checks every
   forwarder's arguments. */
#define FZ_LOADER_SYMBOL(loader, slot, name)                                \
    ({                                                                      \
        static void *cache;                                                 \
        void *function = __atomic_load_n(&cache, __ATOMIC_ACQUIRE);         \
        if (function == NULL) {                                             \
            function = fz_loader_symbol((loader), (slot), #name);           \
            __atomic_store_n(&cache, function, __ATOMIC_RELEASE);           \
        }                                                                   \
        (__typeof__(&name))function;                                        \
    })

#endif
