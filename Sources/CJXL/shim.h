// libjxl's decoder, encoder and thread runner (libjxl-dev): status-returning C, no
// longjmp. Headers only: Swift calls it through CFZJXL's forwarders (fz_jxl_loader.c says why).
#include <jxl/decode.h>
#include <jxl/encode.h>
#include <jxl/thread_parallel_runner.h>
