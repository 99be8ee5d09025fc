// Removing temporary outputs on signals: see fz_process.h.
#include "fz_process.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { FZ_TEMP_SLOTS = 256, FZ_TEMP_PATH = 4096 };

// Fixed slots so the signal handler touches no allocator and takes no lock. Writers
// (register/unregister, on any thread) take the mutex among themselves and publish each
// change under a per-slot sequence number, odd while the slot is being changed (a
// seqlock). The handler, which may run on any thread while another one writes, copies a
// slot, then keeps the copy only if the sequence number was even and unchanged: it never
// unlinks half of one path and half of another. Every byte is accessed atomically.
static char fz_temps[FZ_TEMP_SLOTS][FZ_TEMP_PATH];
static unsigned fz_temp_seq[FZ_TEMP_SLOTS];
static pthread_mutex_t fz_temps_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t fz_interrupted = 0;
static volatile sig_atomic_t fz_deferred = 0;

static void fz_slot_store(int i, const char *path, size_t n) {
    __atomic_add_fetch(&fz_temp_seq[i], 1, __ATOMIC_SEQ_CST);
    for (size_t k = 0; k < n; k++) __atomic_store_n(&fz_temps[i][k], path[k], __ATOMIC_RELAXED);
    __atomic_store_n(&fz_temps[i][n], '\0', __ATOMIC_RELAXED);
    __atomic_add_fetch(&fz_temp_seq[i], 1, __ATOMIC_SEQ_CST);
}

void fz_register_temp(const char *path) {
    size_t n = strlen(path);
    if (n == 0 || n >= FZ_TEMP_PATH) return;
    pthread_mutex_lock(&fz_temps_lock);
    for (int i = 0; i < FZ_TEMP_SLOTS; i++) {
        if (fz_temps[i][0] == '\0') {
            fz_slot_store(i, path, n);
            break;
        }
    }
    pthread_mutex_unlock(&fz_temps_lock);
}

void fz_unregister_temp(const char *path) {
    pthread_mutex_lock(&fz_temps_lock);
    for (int i = 0; i < FZ_TEMP_SLOTS; i++) {
        if (fz_temps[i][0] != '\0' && strcmp(fz_temps[i], path) == 0) {
            fz_slot_store(i, "", 0);
            break;
        }
    }
    pthread_mutex_unlock(&fz_temps_lock);
}

// Async-signal-safe: atomic loads, a stack buffer and unlink(2). A slot whose writer this
// very thread interrupted stays odd; the retries are bounded so the handler never spins.
// Such a temp belongs to a job that is still running and removes it itself (deferred
// mode), or is the window that mkstemp-then-register always had.
static void fz_unlink_temps(void) {
    char copy[FZ_TEMP_PATH];
    for (int i = 0; i < FZ_TEMP_SLOTS; i++) {
        for (int attempt = 0; attempt < 64; attempt++) {
            unsigned before = __atomic_load_n(&fz_temp_seq[i], __ATOMIC_SEQ_CST);
            if (before & 1) continue;
            size_t k = 0;
            for (; k < FZ_TEMP_PATH - 1; k++) {
                copy[k] = __atomic_load_n(&fz_temps[i][k], __ATOMIC_RELAXED);
                if (copy[k] == '\0') break;
            }
            copy[k] = '\0';
            __atomic_thread_fence(__ATOMIC_ACQUIRE);
            if (__atomic_load_n(&fz_temp_seq[i], __ATOMIC_SEQ_CST) != before) continue;
            if (copy[0] != '\0') unlink(copy);
            break;
        }
    }
}

static void fz_on_signal(int sig) {
    int first = fz_interrupted == 0;
    fz_interrupted = sig;
    fz_unlink_temps();
    // Deferred: the first signal only stops the batch, whose loop sees the flag, lets the
    // running jobs drop their outputs, prints its summary and then ends by the signal.
    if (fz_deferred && first) return;
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

void fz_defer_interrupts(void) {
    fz_deferred = 1;
    // A blocked signal never reaches the handler, and the mask is inherited through exec:
    // a parent that blocks them (test harnesses do, in their worker threads) would make
    // Ctrl-C and `kill` do nothing until the batch ends. Unblock exactly what is handled,
    // before the worker threads are made (they inherit this mask).
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

void fz_end_by_signal(int sig) {
    signal(sig, SIG_DFL);
    raise(sig);
    _exit(128 + sig);  // only if the signal is blocked or ignored
}

int fz_interrupted_signal(void) { return fz_interrupted; }

FILE *fz_stdin(void) { return stdin; }
FILE *fz_stdout(void) { return stdout; }

int fz_flush_stdout(void) {
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) return errno ? errno : EIO;
    return 0;
}
