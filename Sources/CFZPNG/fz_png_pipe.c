// Rows inflated on a thread of their own (issue 38). ISA-L's inflate and the unfiltering are
// each about half of a photo PNG's decode, and a row's unfiltering needs only the row above
// it: so the caller's thread unfilters row y while the inflating thread works ahead on the
// rows after it, in a ring of stored rows (a crop's or a thumbnail's wall time becomes the
// larger of the two instead of their sum).
//
// Same rows, same verdicts: what the serial reader would meet at row y (an inflate failure,
// the end of the stream and its warnings after the last row) is met at row y. The inflating
// thread's fz_pngr_fail/fz_pngr_warn go to its own fz_pngr_status (fz_pngr_diverted), which
// reaches the reader only when the rows before it have been delivered; a crop that stops
// early never hears of damage further on, as before. The two threads share no reader field
// without the lock: the inflating one owns the inflate state, the file and the chunk layer
// until it is joined; the caller's owns the rows delivered, the palette check and the
// messages.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fz_png_read_private.h"

enum {
    // A waiting side is woken for this many rows at a time, not for each (futex wake-ups
    // cost about as much as unfiltering a short row).
    FZ_PIPE_BATCH = 8,
    FZ_PIPE_MAX_SLOTS = 32,
    FZ_PIPE_MIN_SLOTS = 2 * FZ_PIPE_BATCH,
};
// The ring is at most 4 MiB, whatever the header says; images with wider rows are read on
// one thread as before (the memory budget counts two rows, this is a fixed allowance).
static const size_t fz_pipe_max_bytes = (size_t)4 << 20;

struct fz_pngr_pipe {
    pthread_t thread;
    int joined;
    pthread_mutex_t lock;
    pthread_cond_t filled, freed;
    uint8_t *ring;
    size_t slot;  // a stored row with its filter byte
    uint32_t slots, height;
    uint32_t produced;  // rows inflated (in the ring, or delivered)
    uint32_t released;  // rows whose slots may be reused
    int ended;  // the inflating thread is done: every row, a failure, or told to stop
    int failed;  // ... with a failure at row `produced`
    int failed_after_row;  // ... met after that row's bytes were inflated (the stream's end)
    int stop;
    int consumer_waiting, producer_waiting;
    fz_pngr_status status;  // what the inflating thread met (read after joining it)
};

static uint8_t *fz_pipe_row(fz_pngr_pipe *p, uint32_t y) { return p->ring + (size_t)(y % p->slots) * p->slot; }

// Waits, with the lock held, until row y may be written (its slot's old row released).
static int fz_pipe_wait_for_slot(fz_pngr_pipe *p, uint32_t y) {
    while (!p->stop && y - p->released >= p->slots) {
        if (p->consumer_waiting) pthread_cond_signal(&p->filled);
        p->producer_waiting = 1;
        pthread_cond_wait(&p->freed, &p->lock);
        p->producer_waiting = 0;
    }
    return !p->stop;
}

static void *fz_pipe_inflate(void *arg) {
    fz_pngr *r = arg;
    fz_pngr_pipe *p = r->pipe;
    fz_pngr_diverted = &p->status;
    for (uint32_t y = 0; y < p->height; y++) {
        pthread_mutex_lock(&p->lock);
        int go = fz_pipe_wait_for_slot(p, y);
        pthread_mutex_unlock(&p->lock);
        if (!go) break;
        int ok = fz_pngr_inflate(r, fz_pipe_row(p, y), p->slot, 0, NULL) == FZ_OK, after = 0;
        // The serial reader finishes the stream right after the last row's bytes, before it
        // delivers that row: a failure there loses the row (libpng's png_read_finish_IDAT).
        if (ok && y + 1 == p->height && fz_pngr_finish_idat(r) != FZ_OK) ok = 0, after = 1;
        pthread_mutex_lock(&p->lock);
        if (ok) {
            p->produced = y + 1;
        } else {
            p->failed = 1;
            p->failed_after_row = after;
        }
        if (p->consumer_waiting &&
            (!ok || p->produced == p->height || p->produced - p->released >= FZ_PIPE_BATCH))
            pthread_cond_signal(&p->filled);
        pthread_mutex_unlock(&p->lock);
        if (!ok) break;
    }
    pthread_mutex_lock(&p->lock);
    p->ended = 1;
    pthread_cond_signal(&p->filled);
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int fz_pngr_pipe_begin(fz_pngr *r) {
    const fz_png_header *h = &r->header;
    if (r->pipe_threads < 2 || h->interlaced || r->rows_read != 0 || h->height < 2) return 0;
    size_t slot = r->stored_bytes + 1;
    if ((double)slot * (double)h->height < (double)r->pipe_minimum) return 0;
    uint32_t slots = FZ_PIPE_MAX_SLOTS;
    if ((size_t)slots * slot > fz_pipe_max_bytes) slots = FZ_PIPE_MIN_SLOTS;
    if ((size_t)slots * slot > fz_pipe_max_bytes) return 0;
    fz_pngr_pipe *p = calloc(1, sizeof *p);
    uint8_t *ring = p != NULL ? malloc((size_t)slots * slot) : NULL;
    if (ring == NULL) {  // no memory for it: one thread, as before
        free(p);
        return 0;
    }
    p->ring = ring;
    p->slot = slot;
    p->slots = slots;
    p->height = h->height;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->filled, NULL);
    pthread_cond_init(&p->freed, NULL);
    r->pipe = p;
    if (pthread_create(&p->thread, NULL, fz_pipe_inflate, r) != 0) {
        p->joined = 1;
        fz_pngr_pipe_end(r);
        return 0;
    }
    return 1;
}

// Tells the inflating thread to stop (it finishes the row it is on) and waits for it.
static void fz_pipe_join(fz_pngr_pipe *p) {
    if (p->joined) return;
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_signal(&p->freed);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    p->joined = 1;
}

// What the inflating thread met, now that the rows before it are out: its warnings, then
// its failure, as the serial reader would have said them.
static void fz_pipe_report(fz_pngr *r, fz_pngr_pipe *p) {
    if (p->status.warnings > 0) {
        fz_pngr_warn(r, p->status.warning);
        r->warnings += p->status.warnings - 1;
    }
    if (p->status.failure) fz_pngr_fail(r, p->status.failure, p->status.message);
    memset(&p->status, 0, sizeof p->status);
}

// Waits until row y is inflated or the inflating thread ended; whether the row is there.
static int fz_pipe_take(fz_pngr_pipe *p, uint32_t y) {
    pthread_mutex_lock(&p->lock);
    while (p->produced <= y && !p->ended) {
        if (p->producer_waiting) pthread_cond_signal(&p->freed);
        p->consumer_waiting = 1;
        pthread_cond_wait(&p->filled, &p->lock);
        p->consumer_waiting = 0;
    }
    int have = p->produced > y;
    pthread_mutex_unlock(&p->lock);
    return have;
}

// Row y's slot keeps the row for the next one's filter; the slots before it are free.
static void fz_pipe_release(fz_pngr_pipe *p, uint32_t y) {
    pthread_mutex_lock(&p->lock);
    p->released = y;
    if (p->producer_waiting && p->slots - (p->produced - p->released) >= FZ_PIPE_BATCH) pthread_cond_signal(&p->freed);
    pthread_mutex_unlock(&p->lock);
}

int fz_pngr_pipe_rows(fz_pngr *r, uint8_t *rows, uint32_t count, size_t stride, uint32_t *done) {
    fz_pngr_pipe *p = r->pipe;
    size_t bytes = r->stored_bytes;
    for (uint32_t i = 0; i < count && r->rows_read < r->header.height; i++) {
        uint32_t y = r->rows_read;
        int have = fz_pipe_take(p, y);
        uint8_t *row = fz_pipe_row(p, y);
        const uint8_t *prev = y == 0 ? r->prev : fz_pipe_row(p, y - 1);  // r->prev: zeros
        if (!have) {
            fz_pipe_join(p);
            // The stream's end failed after the last row's bytes: the serial reader had
            // unfiltered that row first, and a bad filter byte is what it said.
            if (!(p->failed && p->failed_after_row) ||
                fz_png_unfilter(row + 1, prev + 1, bytes, r->bpp, row[0]) == FZ_OK)
                fz_pipe_report(r, p);
            fz_pngr_fail(r, FZ_PNG_CORRUPT, "bad adaptive filter value");  // when nothing else was said
            return FZ_ERROR;
        }
        if (fz_png_unfilter(row + 1, prev + 1, bytes, r->bpp, row[0]) != FZ_OK) {
            fz_pipe_join(p);  // what it met further on is never said, as before
            fz_pngr_fail(r, FZ_PNG_CORRUPT, "bad adaptive filter value");
            return FZ_ERROR;
        }
        fz_pipe_release(p, y);
        if (y + 1 == r->header.height) {
            // The inflating thread has finished the stream (fz_pngr_finish_idat) and ended.
            fz_pipe_join(p);
            fz_pipe_report(r, p);
            if (r->bad_index) fz_pngr_warn(r, "Read palette index exceeding num_palette");
        }
        fz_pngr_expand(r, row + 1, r->header.width, rows + (size_t)i * stride);
        r->rows_read++;
        *done = i + 1;
    }
    if (r->rows_read >= r->header.height) return fz_pngr_end(r);
    return FZ_OK;
}

void fz_pngr_pipe_end(fz_pngr *r) {
    fz_pngr_pipe *p = r->pipe;
    if (p == NULL) return;
    fz_pipe_join(p);
    pthread_cond_destroy(&p->freed);
    pthread_cond_destroy(&p->filled);
    pthread_mutex_destroy(&p->lock);
    free(p->ring);
    free(p);
    r->pipe = NULL;
}
