// fz_process.h: the process around forcezoom — signals, temporary outputs, the standard
// descriptors. Why in C: a signal handler may only call async-signal-safe functions, and
// Swift code cannot promise that.
#ifndef FZ_PROCESS_H
#define FZ_PROCESS_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

// ---------------------------------------------------------------------------------------
// Temporary outputs. Why in C: a signal handler may only call async-signal-safe functions,
// and Swift code cannot promise that. Outputs register their temp path while being
// written; on SIGINT/SIGTERM/SIGHUP the handler unlinks them and re-raises the signal
// (or, in deferred mode, only records it: see fz_defer_interrupts).
// ---------------------------------------------------------------------------------------

/// The process's stdin/stdout streams. Why: Swift 6 refuses C's mutable globals
/// `stdin`/`stdout` as shared state; a function call is fine.
FILE *fz_stdin(void);
FILE *fz_stdout(void);

void fz_register_temp(const char *path);
void fz_unregister_temp(const char *path);
void fz_install_cleanup_handlers(void);

/* Flushes stdout: 0 when everything printed reached it, else the errno of the failed
 * write (ENOSPC on /dev/full, EBADF when stdout was closed). */
int fz_flush_stdout(void);
/// The signal that interrupted the process, 0 if none.
int fz_interrupted_signal(void);
/// Batch mode (`thumb`): from now on the first SIGINT/SIGTERM/SIGHUP unlinks the
/// registered temps and only sets the flag `fz_interrupted_signal` reports, so the batch
/// can stop handing out work, let running jobs discard their outputs and print a summary
/// of what finished. A second signal acts at once (unlink, re-raise). Why a mode and not
/// a Swift handler: the handler must stay async-signal-safe, which only C can promise.
/// Temp registration is thread-safe for the handler too (see fz_cleanup.c). Also unblocks
/// the three signals, which a parent may have left blocked.
void fz_defer_interrupts(void);
/// Ends the process by `sig` with the default action (after a deferred interrupt), so the
/// parent shell sees an interrupted child and stops its script too.
void fz_end_by_signal(int sig);

#ifdef __cplusplus
}
#endif
#endif
