// The libraries opened on first use (fz_loader.h says why and how).
#include "fz_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// One lock for every loader: taken once per forwarder (each caches what it looked up), so
// it is never contended for long, and dlopen runs once per loader.
static pthread_mutex_t fz_loader_lock = PTHREAD_MUTEX_INITIALIZER;

void *fz_loader_symbol(fz_loader *loader, int slot, const char *name) {
    pthread_mutex_lock(&fz_loader_lock);
    if (!loader->opened) {
        for (int i = 0; i < loader->count && i < 2; i++) loader->handles[i] = dlopen(loader->names[i], RTLD_NOW | RTLD_LOCAL);
        loader->opened = 1;
    }
    void *library = slot >= 0 && slot < loader->count ? loader->handles[slot] : NULL;
    void *function = library ? dlsym(library, name) : NULL;
    const char *why = function == NULL ? dlerror() : NULL;
    pthread_mutex_unlock(&fz_loader_lock);
    if (function == NULL) {
        fprintf(stderr, "forcezoom: %s needs %s (%s): %s%s\n", loader->format,
                slot >= 0 && slot < loader->count ? loader->names[slot] : "?", name, why ? why : "not found",
                loader->install);
        exit(1);
    }
    return function;
}
