// The terminal's mode for the probe and `peek`; see fz_terminal.h. The saved mode and the
// leave bytes sit in static storage so the signal handlers can restore them without
// allocating or locking; `fz_term_raw` says whether there is anything to restore, and an
// atomic exchange makes sure it is restored once (by the program or by a handler).
#include "fz_terminal.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static struct termios fz_term_saved;
static int fz_term_fd = -1;
static int fz_term_out = -1;
static char fz_term_leave[FZ_TERM_LEAVE_MAX];
static size_t fz_term_leave_length = 0;
static int fz_term_raw = 0;
static volatile sig_atomic_t fz_term_resize = 0;
// Job control (`peek`): the raw mode and the bytes that enter the screen again after a stop,
// the handler that was there before, and whether a continue asks for a redraw.
static struct termios fz_term_raw_mode;
static char fz_term_enter[FZ_TERM_LEAVE_MAX];
static size_t fz_term_enter_length = 0;
static struct sigaction fz_term_previous_stop;
static int fz_term_stop_watched = 0;
static volatile sig_atomic_t fz_term_continue = 0;

// Writes all of a buffer from a handler (write only, retrying EINTR and short writes).
static void fz_term_put(int fd, const char *bytes, size_t length) {
    size_t done = 0;
    while (done < length) {
        ssize_t n = write(fd, bytes + done, length - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += (size_t)n;
    }
}

static void fz_term_on_resize(int sig) {
    (void)sig;
    fz_term_resize = 1;
}

void fz_term_watch_resize(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fz_term_on_resize;  // no SA_RESTART: poll returns EINTR
    sigemptyset(&sa.sa_mask);
    sigaction(SIGWINCH, &sa, NULL);
}

int fz_term_resized(void) {
    int r = fz_term_resize;
    fz_term_resize = 0;
    return r;
}

int fz_term_enter_raw(int fd, int out_fd, const char *leave, size_t leave_length) {
    if (leave_length > FZ_TERM_LEAVE_MAX) return EINVAL;
    if (__atomic_load_n(&fz_term_raw, __ATOMIC_SEQ_CST)) return EBUSY;
    struct termios mode;
    if (tcgetattr(fd, &mode) != 0) return errno;
    fz_term_saved = mode;
    for (size_t i = 0; i < leave_length; i++) fz_term_leave[i] = leave[i];
    fz_term_leave_length = leave_length;
    fz_term_fd = fd;
    fz_term_out = out_fd;
    mode.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
    mode.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    mode.c_cflag |= CS8;
    mode.c_cc[VMIN] = 0;
    mode.c_cc[VTIME] = 0;
    fz_term_raw_mode = mode;
    // Published before the change: a signal arriving during tcsetattr restores the saved mode.
    __atomic_store_n(&fz_term_raw, 1, __ATOMIC_SEQ_CST);
    if (tcsetattr(fd, TCSANOW, &mode) != 0) {
        int code = errno;
        __atomic_store_n(&fz_term_raw, 0, __ATOMIC_SEQ_CST);
        return code;
    }
    return 0;
}

void fz_term_restore(void) {
    if (!__atomic_exchange_n(&fz_term_raw, 0, __ATOMIC_SEQ_CST)) return;
    int saved = errno;
    fz_term_put(fz_term_out, fz_term_leave, fz_term_leave_length);
    // TCSADRAIN: the leave bytes reach the terminal before it cooks input again.
    tcsetattr(fz_term_fd, TCSADRAIN, &fz_term_saved);
    errno = saved;
}

int fz_term_read(int fd, unsigned char *buffer, int capacity, int timeout_ms) {
    struct pollfd p = {fd, POLLIN, 0};
    int ready;
    // A resize or a continue that came while the caller was drawing is answered at once.
    if (fz_term_resize || fz_term_continue) return 0;
    do {
        ready = poll(&p, 1, timeout_ms);
        if (ready < 0 && errno == EINTR && (fz_term_resize || fz_term_continue)) return 0;
    } while (ready < 0 && errno == EINTR);
    if (ready < 0) return -1;
    if (ready == 0) return 0;
    ssize_t n;
    do { n = read(fd, buffer, (size_t)capacity); } while (n < 0 && errno == EINTR);
    if (n <= 0) return -1;
    return (int)n;
}

int fz_term_window(int fd, int *columns, int *rows, int *width, int *height) {
    struct winsize w;
    if (ioctl(fd, TIOCGWINSZ, &w) != 0) return -1;
    *columns = w.ws_col;
    *rows = w.ws_row;
    *width = w.ws_xpixel;
    *height = w.ws_ypixel;
    return 0;
}

int fz_term_write(int fd, const unsigned char *bytes, size_t length) {
    size_t done = 0;
    while (done < length) {
        ssize_t n = write(fd, bytes + done, length - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno;
        if (n == 0) return EIO;
        done += (size_t)n;
    }
    return 0;
}

// SIGTSTP (Ctrl-Z from a shell, `kill -TSTP`, or peek's own Ctrl-Z key): the terminal is
// given back to the shell (leave bytes, saved mode), the process stops as the default action
// would (default action, signal unblocked, raised: it stops inside this handler), and once
// continued the raw mode and the screen are entered again and the reader is woken to
// redraw. Only async-signal-safe calls: write, tcsetattr, sigaction, sigprocmask, raise.
static void fz_term_on_stop(int sig) {
    int saved = errno;
    int was_raw = __atomic_load_n(&fz_term_raw, __ATOMIC_SEQ_CST);
    fz_term_restore();
    struct sigaction dfl, mine;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, &mine);
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, &old);
    raise(sig);  // stopped here until SIGCONT
    sigprocmask(SIG_SETMASK, &old, NULL);
    sigaction(sig, &mine, NULL);
    if (was_raw) {
        // Published first, as in fz_term_enter_raw: a signal during tcsetattr restores.
        __atomic_store_n(&fz_term_raw, 1, __ATOMIC_SEQ_CST);
        if (tcsetattr(fz_term_fd, TCSANOW, &fz_term_raw_mode) != 0) {
            __atomic_store_n(&fz_term_raw, 0, __ATOMIC_SEQ_CST);
        } else {
            fz_term_put(fz_term_out, fz_term_enter, fz_term_enter_length);
        }
        fz_term_continue = 1;
    }
    errno = saved;
}

int fz_term_watch_stop(const char *enter, size_t enter_length) {
    if (enter_length > FZ_TERM_LEAVE_MAX) return EINVAL;
    for (size_t i = 0; i < enter_length; i++) fz_term_enter[i] = enter[i];
    fz_term_enter_length = enter_length;
    struct sigaction old;
    if (sigaction(SIGTSTP, NULL, &old) != 0) return errno;
    if (old.sa_handler == SIG_IGN) return 0;  // no job control here (the caller ignores it)
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fz_term_on_stop;  // no SA_RESTART: the reader's poll returns EINTR
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGWINCH);
    if (sigaction(SIGTSTP, &sa, &fz_term_previous_stop) != 0) return errno;
    fz_term_stop_watched = 1;
    return 0;
}

void fz_term_unwatch_stop(void) {
    if (!fz_term_stop_watched) return;
    sigaction(SIGTSTP, &fz_term_previous_stop, NULL);
    fz_term_stop_watched = 0;
}

int fz_term_continued(void) {
    int c = fz_term_continue;
    fz_term_continue = 0;
    return c;
}

void fz_term_suspend(void) { raise(SIGTSTP); }
