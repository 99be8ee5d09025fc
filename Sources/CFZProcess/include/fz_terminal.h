// fz_terminal.h: the controlling terminal for inline images and `forcezoom peek` — raw
// mode, bounded reads, the window size, and putting everything back. Why in C: the mode
// must be restored from the signal handlers (fz_cleanup.c) and the crash path, which may
// only call async-signal-safe functions (tcsetattr, write), and Swift cannot promise that.
#ifndef FZ_TERMINAL_H
#define FZ_TERMINAL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The most bytes written back to the terminal on restore (leave the alternate screen,
/// show the cursor, mouse reporting off...).
enum { FZ_TERM_LEAVE_MAX = 256 };

/// Saves the mode of terminal `fd` and makes it raw (no echo, no line editing, no signals
/// from keys: Ctrl-C arrives as byte 3; output processing kept so "\n" still returns the
/// carriage). `leave` (`leave_length` bytes, at most FZ_TERM_LEAVE_MAX) is written to
/// `out_fd` whenever the mode is restored, also from a signal handler. 0, or an errno.
int fz_term_enter_raw(int fd, int out_fd, const char *leave, size_t leave_length);
/// Restores the saved mode and writes the leave bytes, once; nothing when not raw.
/// Async-signal-safe: fz_cleanup.c calls it before a signal or a fault ends the process.
void fz_term_restore(void);
/// Waits at most `timeout_ms` for input on `fd` and reads what is there (at most `capacity`
/// bytes): the count, 0 on timeout, -1 on error or end of input.
int fz_term_read(int fd, unsigned char *buffer, int capacity, int timeout_ms);
/// The window of terminal `fd` (TIOCGWINSZ): 0 and the sizes (pixels 0 when unknown), or -1.
int fz_term_window(int fd, int *columns, int *rows, int *width, int *height);
/// From now on a window resize (SIGWINCH) wakes `fz_term_read`, which then returns 0 as on a
/// timeout; `fz_term_resized` says whether one came since it was last asked (and clears it).
void fz_term_watch_resize(void);
int fz_term_resized(void);
/// Job control for `peek`: from now on SIGTSTP restores the terminal (leave bytes, saved
/// mode) and stops the process; SIGCONT after it makes the terminal raw again, writes
/// `enter` (at most FZ_TERM_LEAVE_MAX bytes: the alternate screen...) and wakes
/// `fz_term_read`, which returns 0; `fz_term_continued` says whether that happened since it
/// was last asked (and clears it). Nothing when SIGTSTP is ignored. 0, or an errno.
int fz_term_watch_stop(const char *enter, size_t enter_length);
/// Puts back the SIGTSTP handler `fz_term_watch_stop` found.
void fz_term_unwatch_stop(void);
int fz_term_continued(void);
/// Stops the process as Ctrl-Z would (peek reads Ctrl-Z as a key: raw mode sends no signal).
void fz_term_suspend(void);
/// Writes all of `bytes` to `fd` (retrying short writes and EINTR): 0, or an errno.
int fz_term_write(int fd, const unsigned char *bytes, size_t length);

#ifdef __cplusplus
}
#endif
#endif
