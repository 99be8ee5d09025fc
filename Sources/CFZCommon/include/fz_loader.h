// fz_loader.h: libraries forcezoom opens with dlopen on their format's first call instead of
// linking them (libheif, libjxl, libtiff, libraw: loading and relocating them, and their
// codecs' initialisers, cost every run milliseconds before main, that format or not). Each
// shim has forwarders fz_NAME for the library's NAME (Tools/shims/make-forwarders.py), each
// looking NAME up once through FZ_LOADER_SYMBOL. Without the library the first call ends
// the process with one line naming it, as a missing library used to end it at start-up.
#ifndef FZ_LOADER_H
#define FZ_LOADER_H

#include <stdint.h>

/* One format's libraries (at most two: libjxl and libjxl_threads), opened together the first
   time a symbol of any is looked up. `format` and `install` make the message: "forcezoom:
   FORMAT needs SONAME (SYMBOL): WHY" then `install` ("; install libtiff (apt-get install
   libtiff6)", or "" to say nothing more). */
typedef struct fz_loader {
    const char *format;
    const char *install;
    int count;
    const char *names[2];
    void *handles[2];
    int opened; /* under fz_loader_symbol's lock */
} fz_loader;

/* The function `name` of library `slot` of `loader`, opening them on the first call; exits
   the process with the message when it cannot be had. */
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
