// The libraries opened on first use (fz_loader.h says why and how).
#include "fz_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// One lock for every loader: taken once per forwarder (each caches what it looked up) and
// once per availability check, so it is never contended for long, and dlopen runs once per
// loader.
static pthread_mutex_t fz_loader_lock = PTHREAD_MUTEX_INITIALIZER;

static void fz_loader_keep(fz_loader *loader, const char *why) {
    snprintf(loader->why, sizeof loader->why, "%s", why ? why : "unknown dlopen error");
}

// Under the lock: opens the libraries once, keeping the first one's failure in `why`.
static void fz_loader_open(fz_loader *loader) {
    if (loader->opened) return;
    loader->opened = 1;
    for (int i = 0; i < loader->count && i < FZ_LOADER_MAX; i++) {
        loader->handles[i] = dlopen(loader->names[i], RTLD_NOW | RTLD_LOCAL);
        if (loader->handles[i] == NULL && loader->state == 0) {
            fz_loader_keep(loader, dlerror());
            loader->state = -1;
        }
    }
}

int fz_loader_available(fz_loader *loader, char *why, size_t size) {
    pthread_mutex_lock(&fz_loader_lock);
    fz_loader_open(loader);
    for (int i = 0; loader->state == 0 && i < loader->symbol_count; i++) {
        const fz_loader_entry *entry = &loader->symbols[i];
        void *library = entry->slot >= 0 && entry->slot < loader->count ? loader->handles[entry->slot] : NULL;
        if (library == NULL || dlsym(library, entry->name) == NULL) {
            const char *error = library ? dlerror() : NULL;
            char text[sizeof loader->why];
            snprintf(text, sizeof text, "%s", error ? error : "no such library slot");
            snprintf(loader->why, sizeof loader->why, "%s lacks %s (%s)", loader->names[entry->slot < 0 ? 0 : entry->slot],
                     entry->name, text);
            loader->state = -1;
        }
    }
    if (loader->state == 0) loader->state = 1;
    int ok = loader->state == 1;
    if (!ok && why && size > 0) snprintf(why, size, "%s", loader->why);
    pthread_mutex_unlock(&fz_loader_lock);
    return ok;
}

const char *fz_loader_soname(const fz_loader *loader, int slot) {
    return slot >= 0 && slot < loader->count && slot < FZ_LOADER_MAX ? loader->names[slot] : NULL;
}

void *fz_loader_symbol(fz_loader *loader, int slot, const char *name) {
    pthread_mutex_lock(&fz_loader_lock);
    fz_loader_open(loader);
    void *library = slot >= 0 && slot < loader->count ? loader->handles[slot] : NULL;
    void *function = library ? dlsym(library, name) : NULL;
    const char *why = function == NULL ? (library ? dlerror() : loader->why) : NULL;
    if (function == NULL) {
        // Unreachable when the format's Swift side asked fz_loader_available first (every
        // path does): a bug, said plainly rather than a silent exit or a call through NULL.
        fprintf(stderr, "forcezoom: internal error: %s needs %s (%s): %s; its availability check was skipped\n",
                loader->format, fz_loader_soname(loader, slot) ? fz_loader_soname(loader, slot) : "?", name,
                why && *why ? why : "not found");
        pthread_mutex_unlock(&fz_loader_lock);
        abort();
    }
    pthread_mutex_unlock(&fz_loader_lock);
    return function;
}
