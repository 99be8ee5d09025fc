// fz_common.h: what every shim shares.
//
// Why the shims exist: libpng and libjpeg report fatal errors by longjmp (png_error,
// libjpeg's error_exit). A longjmp that crosses a Swift frame skips Swift's cleanup and is
// undefined behaviour. So every library call that can fail runs inside a function here,
// which does its own setjmp first, copies the library's message into the reader's or
// writer's `message` buffer, records what kind of failure it was (a typed code per library:
// fz_png_failure, fz_jpeg_failure) and returns a status (FZ_OK or FZ_ERROR). Swift only ever
// sees statuses, kinds and messages, and turns them into typed errors after the C call has
// returned. No function here calls back into Swift.
//
// One header per library (fz_png.h, fz_jpeg.h, fz_deflate.h, fz_color.h, fz_heif.h; the
// process part is fz_process.h), so a codec's Swift file reads one header.
#ifndef FZ_COMMON_H
#define FZ_COMMON_H

enum { FZ_OK = 0, FZ_ERROR = 1 };
enum { FZ_MESSAGE_MAX = 256 };

#endif
