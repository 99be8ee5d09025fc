// libde265's tables (fz_de265_warm_up) begun from a constructor, before main, when the
// command line names a HEIC file. Why: the warm-up thread's start waits for the second CPU
// to wake (about 1.5 ms on the 2-vCPU machine the bench runs on), and de265_init (5 ms)
// then ran past the parse, the open and the header's work on the main thread: a one-tile
// crop waited for it. Begun here, its start overlaps the Swift runtime's start-up and
// the process set-up as well (one-tile crop 25.3 -> 23.6 ms median, 60 interleaved runs, when
// the second CPU was free; no difference in two slower minutes).
// The rule is FormatRegistry.warmUp's, which still runs (a second call is a no-op); the
// extensions are HEIF's registration's less AVIF, which DecoderWarmUpTests compares.
#include "fz_de265.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char *const early_extensions[] = {"heic", "heif", "hif"};

const char *fz_de265_early_extension(int i) {
    return i >= 0 && i < (int)(sizeof early_extensions / sizeof *early_extensions) ? early_extensions[i] : NULL;
}

// Threads.perImage > 1: FORCEZOOM_THREADS when it is a whole number >= 1, else the CPUs.
static int several_threads(const char *threads, long cpus) {
    if (threads && *threads) {
        const char *p = threads + (*threads == '+' || *threads == '-');
        long n = 0;
        int digits = 0;
        while (*p >= '0' && *p <= '9' && n < 1000000) n = n * 10 + (*p++ - '0'), digits++;
        if (digits && !*p && *threads != '-' && n >= 1) return n > 1;
    }
    return cpus > 1;
}

static int early_extension(const char *name) {
    const char *dot = strrchr(name, '.');
    if (!dot || !dot[1]) return 0;
    for (int i = 0; fz_de265_early_extension(i); i++) {
        if (strcasecmp(dot + 1, fz_de265_early_extension(i)) == 0) return 1;
    }
    return 0;
}

int fz_de265_early_warm_up_wanted(int argc, char *const *argv, const char *threads, long cpus) {
    if (!argv || !several_threads(threads, cpus)) return 0;
    for (int i = 1; i < argc && i <= 32 && argv[i]; i++) {
        if (argv[i][0] != '-' && early_extension(argv[i])) return 1;
    }
    return 0;
}

// glibc calls constructors with the process's arguments and environment.
__attribute__((constructor)) static void fz_de265_early_warm_up(int argc, char **argv, char **envp) {
    (void)envp;
    if (fz_de265_early_warm_up_wanted(argc, argv, getenv("FORCEZOOM_THREADS"), sysconf(_SC_NPROCESSORS_ONLN))) {
        fz_de265_warm_up();
    }
}
