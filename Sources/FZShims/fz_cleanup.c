// Removing temporary outputs on SIGINT/SIGTERM: see fz_shims.h.
#include "fz_shims.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { FZ_TEMP_SLOTS = 256, FZ_TEMP_PATH = 4096 };

// Fixed slots so the signal handler touches no allocator: a slot is live when its first
// byte is non-zero. Writers take the mutex; the handler only reads.
static char fz_temps[FZ_TEMP_SLOTS][FZ_TEMP_PATH];
static pthread_mutex_t fz_temps_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t fz_interrupted = 0;

void fz_register_temp(const char *path) {
    size_t n = strlen(path);
    if (n >= FZ_TEMP_PATH) return;
    pthread_mutex_lock(&fz_temps_lock);
    for (int i = 0; i < FZ_TEMP_SLOTS; i++) {
        if (fz_temps[i][0] == '\0') {
            memcpy(fz_temps[i] + 1, path + 1, n);  // body first, first byte last: the
            fz_temps[i][0] = path[0];              // handler never sees half a path
            break;
        }
    }
    pthread_mutex_unlock(&fz_temps_lock);
}

void fz_unregister_temp(const char *path) {
    pthread_mutex_lock(&fz_temps_lock);
    for (int i = 0; i < FZ_TEMP_SLOTS; i++) {
        if (fz_temps[i][0] != '\0' && strcmp(fz_temps[i], path) == 0) {
            fz_temps[i][0] = '\0';
            break;
        }
    }
    pthread_mutex_unlock(&fz_temps_lock);
}

static void fz_on_signal(int sig) {
    fz_interrupted = sig;
    for (int i = 0; i < FZ_TEMP_SLOTS; i++)
        if (fz_temps[i][0] != '\0') unlink(fz_temps[i]);  // async-signal-safe
    // Default action now: the process ends with the signal, as the caller expects.
    signal(sig, SIG_DFL);
    raise(sig);
}

void fz_install_cleanup_handlers(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fz_on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

int fz_interrupted_signal(void) { return fz_interrupted; }

FILE *fz_stdin(void) { return stdin; }
FILE *fz_stdout(void) { return stdout; }
