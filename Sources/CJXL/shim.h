// libjxl's decoder, encoder and thread runner (libjxl-dev): status-returning C, no
// longjmp, so Swift calls it directly (Sources/FZCodecs/JXL/JXLCodec.swift).
#include <jxl/decode.h>
#include <jxl/encode.h>
#include <jxl/thread_parallel_runner.h>
