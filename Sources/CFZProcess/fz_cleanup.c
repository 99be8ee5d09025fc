// The process around forcezoom: signals, temporary outputs, the standard descriptors.
// See fz_process.h for the contract; this file is long because every signal path is here
// together, where one can check that each is async-signal-safe.
#define _GNU_SOURCE  // fopencookie
#include "fz_process.h"
#include "fz_terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { FZ_TEMP_NAME = 256 };

// Fixed slots so the signal handler touches no allocator and takes no lock. Writers
// (register/unregister, on any thread) take the mutex among themselves and publish each
// change under a per-slot sequence number, odd while the slot is being changed (a
// seqlock). The handler, which may run on any thread while another one writes, copies a
// slot, then keeps the copy only if the sequence number was even and unchanged: it never
// unlinks half of one name and half of another. Every byte is accessed atomically.
// A slot is a folder descriptor and a name in it (unlinkat): temp files are created
// relative to their folder's descriptor, so a folder renamed or replaced by a link
// meanwhile changes nothing.
static char fz_temps[FZ_TEMP_SLOTS][FZ_TEMP_NAME];
static int fz_temp_dirs[FZ_TEMP_SLOTS];
static unsigned fz_temp_seq[FZ_TEMP_SLOTS];
static pthread_mutex_t fz_temps_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t fz_interrupted = 0;
static volatile sig_atomic_t fz_deferred = 0;
static volatile sig_atomic_t fz_alarm_ignored = 0;
// Temp files being created (fz_register_temp, then openat) and whether the process is
// ending. The creating thread blocks signals, but a signal sent to the process is
// delivered to another thread. The name is registered before the file exists, so the
// handler's unlink finds it whether or not the creating thread got to openat; and no
// creation starts once the process is ending. The handler still waits a little for
// creations under way, for the one case the name alone cannot cover: an openat already in
// the kernel while the handler unlinks.
static int fz_creating = 0;
static int fz_dying = 0;

int fz_begin_temp(void) {
    __atomic_add_fetch(&fz_creating, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&fz_dying, __ATOMIC_SEQ_CST)) {
        __atomic_sub_fetch(&fz_creating, 1, __ATOMIC_SEQ_CST);
        return -1;
    }
    return 0;
}

void fz_end_temp(void) { __atomic_sub_fetch(&fz_creating, 1, __ATOMIC_SEQ_CST); }

// At most two seconds on the monotonic clock (async-signal-safe), sleeping a millisecond at
// a time so that the threads waited for get the CPU. A creation is a registration and an
// openat, microseconds on a quiet machine; on a loaded one (a thousand jobs on two busy
// cores, the directory's lock contended) a thread can sit in openat for long: a file it
// makes after the handler's unlink would be left behind when the process dies. No creation
// starts once the process is ending, so the count only falls; running out of time (a thread
// that never gets the CPU) leaves at most the files still being made.
static void fz_wait_for_creations(void) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (__atomic_load_n(&fz_creating, __ATOMIC_SEQ_CST) > 0) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        long elapsed = (now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec);
        if (elapsed >= 2000000000L) return;
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
}

static void fz_slot_store(int i, int dir, const char *name, size_t n) {
    __atomic_add_fetch(&fz_temp_seq[i], 1, __ATOMIC_SEQ_CST);
    __atomic_store_n(&fz_temp_dirs[i], dir, __ATOMIC_RELAXED);
    for (size_t k = 0; k < n; k++) __atomic_store_n(&fz_temps[i][k], name[k], __ATOMIC_RELAXED);
    __atomic_store_n(&fz_temps[i][n], '\0', __ATOMIC_RELAXED);
    __atomic_add_fetch(&fz_temp_seq[i], 1, __ATOMIC_SEQ_CST);
}

int fz_register_temp(int dir, const char *name) {
    size_t n = strlen(name);
    if (n == 0 || n >= FZ_TEMP_NAME) return -1;
    int stored = -1;
    pthread_mutex_lock(&fz_temps_lock);
    for (int i = 0; i < FZ_TEMP_SLOTS; i++) {
        if (fz_temps[i][0] == '\0') {
            fz_slot_store(i, dir, name, n);
            stored = 0;
            break;
        }
    }
    pthread_mutex_unlock(&fz_temps_lock);
    return stored;
}

void fz_unregister_temp(int dir, const char *name) {
    pthread_mutex_lock(&fz_temps_lock);
    for (int i = 0; i < FZ_TEMP_SLOTS; i++) {
        if (fz_temps[i][0] != '\0' && fz_temp_dirs[i] == dir && strcmp(fz_temps[i], name) == 0) {
            fz_slot_store(i, -1, "", 0);
            break;
        }
    }
    pthread_mutex_unlock(&fz_temps_lock);
}

// Async-signal-safe: atomic loads, a stack buffer and unlinkat(2). A slot still being
// written after the bounded retries (the handler never spins) is a registration whose
// file does not exist yet (its thread blocks signals and is waited for), or an
// unregistration whose file is gone or renamed already: nothing is lost by passing it.
static void fz_unlink_temps(void) {
    char copy[FZ_TEMP_NAME];
    for (int i = 0; i < FZ_TEMP_SLOTS; i++) {
        for (int attempt = 0; attempt < 64; attempt++) {
            unsigned before = __atomic_load_n(&fz_temp_seq[i], __ATOMIC_SEQ_CST);
            if (before & 1) continue;
            int dir = __atomic_load_n(&fz_temp_dirs[i], __ATOMIC_RELAXED);
            size_t k = 0;
            for (; k < FZ_TEMP_NAME - 1; k++) {
                copy[k] = __atomic_load_n(&fz_temps[i][k], __ATOMIC_RELAXED);
                if (copy[k] == '\0') break;
            }
            copy[k] = '\0';
            __atomic_thread_fence(__ATOMIC_ACQUIRE);
            if (__atomic_load_n(&fz_temp_seq[i], __ATOMIC_SEQ_CST) != before) continue;
            if (copy[0] != '\0') unlinkat(dir, copy, 0);
            break;
        }
    }
}

// The signals whose default action ends the process and that someone else sends (a
// shell, a pipe, a scheduler, a timer). Each removes the temp outputs and ends the
// process by the same signal, so the parent sees what happened. SIGXFSZ is not here: it
// is ignored, so a write past `ulimit -f` fails with EFBIG and is reported for that output.
static const int fz_stop_signals[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1,
                                      SIGUSR2, SIGVTALRM, SIGPROF, SIGXCPU, SIGIO, SIGPWR, SIGSTKFLT};
// Faults: the crash path. Temps are removed, then the handler that was there before
// (Swift's backtracer, or the default) takes over, so crash reports stay as they were.
static const int fz_fault_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT, SIGSYS};
enum { FZ_FAULTS = sizeof fz_fault_signals / sizeof fz_fault_signals[0] };
static struct sigaction fz_previous_fault[FZ_FAULTS];

// The signals a batch defers: the ones that mean "stop, please" (Ctrl-C, kill, hang-up).
static int fz_is_deferrable(int sig) { return sig == SIGINT || sig == SIGTERM || sig == SIGHUP; }

static void fz_die_by(int sig) {
    __atomic_store_n(&fz_dying, 1, __ATOMIC_SEQ_CST);
    fz_term_restore();  // a raw terminal (peek, the probe) gets its mode and screen back
    fz_wait_for_creations();
    fz_unlink_temps();
    // Once more: a file whose openat was already in the kernel when the names were unlinked
    // exists by now (seen at a load of 10: a double stop of a thousand jobs left 76 such).
    fz_wait_for_creations();
    fz_unlink_temps();
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);  // only if the signal could not end the process
}

static void fz_on_signal(int sig) {
    if (sig == SIGALRM) {
        // The grace period after a deferred interrupt has run out (a job stuck in a
        // library that never looks at the flag): end now, by the signal that asked.
        int pending = fz_interrupted;
        if (pending != 0) fz_die_by(pending);
        if (fz_alarm_ignored) return;  // the caller ignored SIGALRM: it stays ignored
    }
    int first = fz_interrupted == 0;
    if (first) fz_interrupted = sig;
    // Deferred: the first stop signal only stops the batch, whose loop sees the flag, lets
    // the running jobs drop their outputs, prints its summary and then ends by the signal.
    // A job that never returns is not waited for past the grace period (SIGALRM above).
    if (fz_deferred && first && fz_is_deferrable(sig)) {
        fz_wait_for_creations();
        fz_unlink_temps();
        alarm(FZ_GRACE_SECONDS);
        return;
    }
    fz_die_by(sig);
}

static void fz_on_fault(int sig, siginfo_t *info, void *context) {
    (void)context;
    __atomic_store_n(&fz_dying, 1, __ATOMIC_SEQ_CST);
    fz_term_restore();
    fz_wait_for_creations();
    fz_unlink_temps();
    for (int i = 0; i < FZ_FAULTS; i++) {
        if (fz_fault_signals[i] == sig) sigaction(sig, &fz_previous_fault[i], NULL);
    }
    // A real fault happens again when the instruction is retried, and reaches the
    // handler put back above with its own information. One that was sent (kill, abort,
    // raise) is not retried: send it again.
    if (info == NULL || info->si_code <= 0) raise(sig);
}

void fz_install_cleanup_handlers(void) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fz_on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof fz_stop_signals / sizeof fz_stop_signals[0]; i++) {
        int sig = fz_stop_signals[i];
        // A signal ignored at start stays ignored (nohup, a scheduler's SIG_IGN): the
        // caller asked for that. SIGALRM is the grace timer's, so it is always caught,
        // and ignored by the handler when the caller ignored it.
        if (sigaction(sig, NULL, &old) != 0) continue;
        if (old.sa_handler == SIG_IGN) {
            if (sig != SIGALRM) continue;
            fz_alarm_ignored = 1;
        }
        sigaction(sig, &sa, NULL);
    }
    for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++) {
        if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_DFL) sigaction(sig, &sa, NULL);
    }
    signal(SIGXFSZ, SIG_IGN);
    struct sigaction fault;
    memset(&fault, 0, sizeof fault);
    fault.sa_sigaction = fz_on_fault;
    fault.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&fault.sa_mask);
    for (int i = 0; i < FZ_FAULTS; i++) sigaction(fz_fault_signals[i], &fault, &fz_previous_fault[i]);
}

void fz_block_cleanup_signals(sigset_t *previous) {
    sigset_t all;
    sigfillset(&all);
    // Faults must stay deliverable; everything that can be sent waits.
    for (int i = 0; i < FZ_FAULTS; i++) sigdelset(&all, fz_fault_signals[i]);
    pthread_sigmask(SIG_BLOCK, &all, previous);
}

void fz_restore_signals(const sigset_t *previous) { pthread_sigmask(SIG_SETMASK, previous, NULL); }

void fz_defer_interrupts(void) {
    fz_deferred = 1;
    // A blocked signal never reaches the handler, and the mask is inherited through exec:
    // a parent that blocks them (test harnesses do, in their worker threads) would make
    // Ctrl-C and `kill` do nothing until the batch ends. Unblock exactly what is handled,
    // before the worker threads are made (they inherit this mask).
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof fz_stop_signals / sizeof fz_stop_signals[0]; i++) sigaddset(&set, fz_stop_signals[i]);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

void fz_end_by_signal(int sig) { fz_die_by(sig); }

int fz_interrupted_signal(void) { return fz_interrupted; }

static int fz_stdout_was_closed = 0;

int fz_ensure_standard_descriptors(void) {
    // A closed 0, 1 or 2 would be taken by the next open: a temp output on descriptor 1
    // would receive the JSON lines, one on 2 the error messages. Put /dev/null there
    // first, as coreutils and OpenSSH do; on 1, /dev/full, so that output written to a
    // closed stdout still fails (ENOSPC; the message says stdout was closed) instead of
    // vanishing.
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        if (fd == 1) fz_stdout_was_closed = 1;
        int opened = open(fd == 1 ? "/dev/full" : "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (opened != fd) {
            if (opened >= 0) close(opened);
            return -1;
        }
    }
    return 0;
}

static void *fz_thread_probe_body(void *arg) { return arg; }

int fz_can_start_thread(void) {
    pthread_t id;
    int rc = pthread_create(&id, NULL, fz_thread_probe_body, NULL);
    if (rc != 0) return rc;
    pthread_join(id, NULL);
    return 0;
}

// The errno of the first write to descriptor 1 that failed. Why: stdio keeps only a flag
// (ferror); by the time the run reports it, errno belongs to some later call, and a
// failed `print` or encoder write was reported as EIO (or EBADF) where it was ENOSPC.
static int fz_stdout_errno = 0;

static ssize_t fz_stdout_write(void *cookie, const char *buf, size_t size) {
    (void)cookie;
    size_t done = 0;
    while (done < size) {
        ssize_t n = write(1, buf + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (fz_stdout_errno == 0) fz_stdout_errno = n < 0 ? errno : EIO;
            return (ssize_t)done;  // fewer than size: stdio sets the error flag
        }
        done += (size_t)n;
    }
    return (ssize_t)size;
}

void fz_watch_stdout(void) {
    // glibc lets a program assign stdout; Swift's print and every encoder write through it.
    // Buffered as glibc buffers descriptor 1 (by line on a terminal). If the stream cannot
    // be made, stdout stays as it was and a failure is reported without its errno.
    cookie_io_functions_t io = {.read = NULL, .write = fz_stdout_write, .seek = NULL, .close = NULL};
    fflush(stdout);
    FILE *watched = fopencookie(NULL, "w", io);
    if (watched == NULL) return;
    setvbuf(watched, NULL, isatty(1) ? _IOLBF : _IOFBF, BUFSIZ);
    stdout = watched;
}

FILE *fz_stdin(void) { return stdin; }
FILE *fz_stdout(void) { return stdout; }

int fz_stdout_closed_at_start(void) { return fz_stdout_was_closed; }

int fz_flush_stdout(void) {
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (fz_stdout_errno != 0) return fz_stdout_errno;
        return errno ? errno : EIO;
    }
    return 0;
}
