// libraw's C API (libraw_r: the thread-safe build). Every entry point catches the C++
// exceptions libraw throws inside and returns an error code instead.
#include <libraw/libraw.h>
