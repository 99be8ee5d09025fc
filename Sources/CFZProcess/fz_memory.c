// glibc's malloc settings for the HEIF tile paths (ProcessSetup.keepFreedPages says why).

#include "fz_process.h"

#include <malloc.h>

void fz_keep_freed_pages(void) {
    (void)mallopt(M_TOP_PAD, 4 << 20);
    (void)mallopt(M_MMAP_THRESHOLD, 32 << 20);
}
