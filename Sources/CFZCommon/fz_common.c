// fz_common.c: SwiftPM builds a C target only from a source file; the shared part of the
// shims is the header (fz_common.h), so this file is empty on purpose.
#include "fz_common.h"
