// fz_process.h: the process around forcezoom — signals, temporary outputs, the standard
// descriptors. Why in C: a signal handler may only call async-signal-safe functions, and
// Swift code cannot promise that.
#ifndef FZ_PROCESS_H
#define FZ_PROCESS_H

#include <signal.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

// ---------------------------------------------------------------------------------------
// Temporary outputs and signals. Outputs register their temp file (a folder descriptor and
// a name in it) while being written. Every signal whose default is to end the process
// removes them and then ends it by that signal (or, in deferred mode, only records a stop
// signal: see fz_defer_interrupts); faults remove them and then go to the handler that was
// there before. Signals ignored at start stay ignored (nohup). SIGXFSZ is ignored, so a
// write past `ulimit -f` fails with EFBIG like a full disk.
// ---------------------------------------------------------------------------------------

/// The process's stdin/stdout streams. Why: Swift 6 refuses C's mutable globals
/// `stdin`/`stdout` as shared state; a function call is fine.
FILE *fz_stdin(void);
FILE *fz_stdout(void);

/// How many temp outputs can exist at once: more than `--jobs` allows (1024), each job
/// writing one file at a time, plus the outputs a command keeps open (an APNG stream).
enum { FZ_TEMP_SLOTS = 1100 };
/// Seconds a batch may take, after its first stop signal, to let its running jobs finish;
/// then the process ends regardless (a job stuck in a library never sees the flag).
enum { FZ_GRACE_SECONDS = 2 };

/// Registers a temp output `name` in the folder open as `dir`: 0, or -1 when every slot
/// is taken or the name is too long (the caller then removes the file and fails).
int fz_register_temp(int dir, const char *name);
/// Brackets the creation of a temp file (fz_register_temp, then openat), with signals
/// blocked in the calling thread: a handler on another thread waits a little for it.
/// fz_begin_temp returns -1 (and nothing may be created) once the process is ending.
int fz_begin_temp(void);
void fz_end_temp(void);
void fz_unregister_temp(int dir, const char *name);
void fz_install_cleanup_handlers(void);
/// Blocks every signal that can be sent (faults stay deliverable), saving the old mask:
/// while a temp file is registered and created, no handler may run on this thread.
void fz_block_cleanup_signals(sigset_t *previous);
void fz_restore_signals(const sigset_t *previous);

/// Makes sure descriptors 0, 1 and 2 are open (/dev/null where one is closed), before
/// anything else opens a file. -1 when that cannot be done.
int fz_ensure_standard_descriptors(void);
/// 0 when a thread can be started (one is, and joined), else pthread_create's error
/// (EAGAIN under `ulimit -u`): a library that starts threads of its own and waits for them
/// (libde265) would wait forever when one cannot start.
int fz_can_start_thread(void);

/* Flushes stdout: 0 when everything printed reached it, else the errno of the first
 * write that failed (ENOSPC on /dev/full, also when stdout was closed at start and
 * forcezoom put /dev/full there). */
int fz_flush_stdout(void);
/// Makes stdout a stream that remembers the errno of the first failed write to
/// descriptor 1 (for fz_flush_stdout). Called once at start, before any output.
void fz_watch_stdout(void);
/// 1 when descriptor 1 was closed at start (fz_ensure_standard_descriptors).
int fz_stdout_closed_at_start(void);
/// The signal that interrupted the process, 0 if none.
int fz_interrupted_signal(void);
/// Batch mode (`thumb`): from now on the first SIGINT/SIGTERM/SIGHUP unlinks the
/// registered temps and only sets the flag `fz_interrupted_signal` reports, so the batch
/// can stop handing out work, let running jobs discard their outputs and print a summary
/// of what finished. A second signal of any kind acts at once (unlink, end by it), and so
/// does the end of the grace period (FZ_GRACE_SECONDS). Why a mode and not a Swift
/// handler: the handler must stay async-signal-safe, which only C can promise. Temp
/// registration is thread-safe for the handler too (see fz_cleanup.c). Also unblocks the
/// handled signals, which a parent may have left blocked.
void fz_defer_interrupts(void);
/// Ends the process by `sig` with the default action (after a deferred interrupt), so the
/// parent shell sees an interrupted child and stops its script too.
void fz_end_by_signal(int sig);

/// Sets glibc's malloc to keep 4 MB at the top of each heap and to map only blocks of 32 MB
/// or more (ProcessSetup.keepFreedPages says why and when).
void fz_keep_freed_pages(void);

#ifdef __cplusplus
}
#endif
#endif
