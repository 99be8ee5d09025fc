// libjxl, loaded on first use. libjxl brings Highway (libhwy) with it, whose static
// initialiser measures the timer's resolution as the library loads: linking libjxl cost every
// forcezoom run about 6 ms before main, JPEG XL or not (a 256 px thumbnail of a camera RAW's
// preview takes about 30 ms in all). So forcezoom does not link libjxl: each function
// JXLCodec.swift calls has a forwarder here, fz_NAME for libjxl's NAME, which calls that
// function in libjxl.so.MAJOR.MINOR (or libjxl_threads), opened with dlopen the first time one
// is called, as CFZHeif does for libheif. The forwarders have names of our own so that this
// binary defines no libjxl symbol. The sonames come from the headers' version: libjxl 0.x
// changes its ABI with each minor version, so the library must be the one compiled against.
// Without it only JPEG XL files fail: fz_jxl_available is asked first (fz_loader.h,
// FormatLibrary.swift).
#include <jxl/version.h>

#include "fz_jxl.h"
#include "fz_loader.h"

#define FZ_STR2(x) #x
#define FZ_STR(x) FZ_STR2(x)
#define FZ_JXL_SOVERSION FZ_STR(JPEGXL_MAJOR_VERSION) "." FZ_STR(JPEGXL_MINOR_VERSION)

// Every symbol the forwarders below use (fz_loader_available resolves them all before the
// first call; LibraryTableTests checks this table against the forwarders).
static const fz_loader_entry fz_jxl_symbols[] = {
    {0, "JxlColorEncodingSetToSRGB"},
    {0, "JxlDecoderCloseInput"},
    {0, "JxlDecoderCreate"},
    {0, "JxlDecoderDestroy"},
    {0, "JxlDecoderFlushImage"},
    {0, "JxlDecoderGetBasicInfo"},
    {0, "JxlDecoderGetBoxType"},
    {0, "JxlDecoderGetColorAsEncodedProfile"},
    {0, "JxlDecoderGetColorAsICCProfile"},
    {0, "JxlDecoderGetFrameHeader"},
    {0, "JxlDecoderGetICCProfileSize"},
    {0, "JxlDecoderImageOutBufferSize"},
    {0, "JxlDecoderProcessInput"},
    {0, "JxlDecoderReleaseBoxBuffer"},
    {0, "JxlDecoderSetBoxBuffer"},
    {0, "JxlDecoderSetDecompressBoxes"},
    {0, "JxlDecoderSetImageOutBuffer"},
    {0, "JxlDecoderSetInput"},
    {0, "JxlDecoderSetKeepOrientation"},
    {0, "JxlDecoderSetParallelRunner"},
    {0, "JxlDecoderSetUnpremultiplyAlpha"},
    {0, "JxlDecoderSkipFrames"},
    {0, "JxlDecoderSubscribeEvents"},
    {0, "JxlEncoderAddBox"},
    {0, "JxlEncoderAddImageFrame"},
    {0, "JxlEncoderCloseInput"},
    {0, "JxlEncoderCreate"},
    {0, "JxlEncoderDestroy"},
    {0, "JxlEncoderFrameSettingsCreate"},
    {0, "JxlEncoderFrameSettingsSetOption"},
    {0, "JxlEncoderGetError"},
    {0, "JxlEncoderInitBasicInfo"},
    {0, "JxlEncoderProcessOutput"},
    {0, "JxlEncoderSetBasicInfo"},
    {0, "JxlEncoderSetColorEncoding"},
    {0, "JxlEncoderSetFrameDistance"},
    {0, "JxlEncoderSetFrameLossless"},
    {0, "JxlEncoderSetICCProfile"},
    {0, "JxlEncoderSetParallelRunner"},
    {0, "JxlEncoderUseBoxes"},
    {0, "JxlEncoderUseContainer"},
    {1, "JxlThreadParallelRunnerCreate"},
    {1, "JxlThreadParallelRunnerDestroy"},
    {1, "JxlThreadParallelRunner"},
};

static fz_loader fz_jxl_loader = {
    .format = "JPEG XL",
    .count = 2,
    .names = {"libjxl.so." FZ_JXL_SOVERSION, "libjxl_threads.so." FZ_JXL_SOVERSION},
    .symbols = fz_jxl_symbols,
    .symbol_count = sizeof fz_jxl_symbols / sizeof fz_jxl_symbols[0],
};

int fz_jxl_available(char *why, size_t size) { return fz_loader_available(&fz_jxl_loader, why, size); }
const char *fz_jxl_soname(int slot) { return fz_loader_soname(&fz_jxl_loader, slot); }

// The function `name` of library `slot` (0 libjxl, 1 libjxl_threads), looked up once.
#define FZ_SYMBOL(slot, name) FZ_LOADER_SYMBOL(&fz_jxl_loader, slot, name)

void fz_JxlColorEncodingSetToSRGB(JxlColorEncoding* color_encoding, int is_gray) {
    FZ_SYMBOL(0, JxlColorEncodingSetToSRGB)(color_encoding, is_gray);
}
void fz_JxlDecoderCloseInput(JxlDecoder* dec) {
    FZ_SYMBOL(0, JxlDecoderCloseInput)(dec);
}
JxlDecoder* fz_JxlDecoderCreate(const JxlMemoryManager* memory_manager) {
    return FZ_SYMBOL(0, JxlDecoderCreate)(memory_manager);
}
void fz_JxlDecoderDestroy(JxlDecoder* dec) {
    FZ_SYMBOL(0, JxlDecoderDestroy)(dec);
}
JxlDecoderStatus fz_JxlDecoderFlushImage(JxlDecoder* dec) {
    return FZ_SYMBOL(0, JxlDecoderFlushImage)(dec);
}
JxlDecoderStatus fz_JxlDecoderGetBasicInfo(const JxlDecoder* dec, JxlBasicInfo* info) {
    return FZ_SYMBOL(0, JxlDecoderGetBasicInfo)(dec, info);
}
JxlDecoderStatus fz_JxlDecoderGetBoxType(JxlDecoder* dec, JxlBoxType type, int decompressed) {
    return FZ_SYMBOL(0, JxlDecoderGetBoxType)(dec, type, decompressed);
}
JxlDecoderStatus fz_JxlDecoderGetColorAsEncodedProfile(const JxlDecoder* dec, const JxlPixelFormat* unused_format, JxlColorProfileTarget target, JxlColorEncoding* color_encoding) {
    return FZ_SYMBOL(0, JxlDecoderGetColorAsEncodedProfile)(dec, unused_format, target, color_encoding);
}
JxlDecoderStatus fz_JxlDecoderGetColorAsICCProfile(const JxlDecoder* dec, const JxlPixelFormat* unused_format, JxlColorProfileTarget target, uint8_t* icc_profile, size_t size) {
    return FZ_SYMBOL(0, JxlDecoderGetColorAsICCProfile)(dec, unused_format, target, icc_profile, size);
}
JxlDecoderStatus fz_JxlDecoderGetFrameHeader(const JxlDecoder* dec, JxlFrameHeader* header) {
    return FZ_SYMBOL(0, JxlDecoderGetFrameHeader)(dec, header);
}
JxlDecoderStatus fz_JxlDecoderGetICCProfileSize(const JxlDecoder* dec, const JxlPixelFormat* unused_format, JxlColorProfileTarget target, size_t* size) {
    return FZ_SYMBOL(0, JxlDecoderGetICCProfileSize)(dec, unused_format, target, size);
}
JxlDecoderStatus fz_JxlDecoderImageOutBufferSize(const JxlDecoder* dec, const JxlPixelFormat* format, size_t* size) {
    return FZ_SYMBOL(0, JxlDecoderImageOutBufferSize)(dec, format, size);
}
JxlDecoderStatus fz_JxlDecoderProcessInput(JxlDecoder* dec) {
    return FZ_SYMBOL(0, JxlDecoderProcessInput)(dec);
}
size_t fz_JxlDecoderReleaseBoxBuffer(JxlDecoder* dec) {
    return FZ_SYMBOL(0, JxlDecoderReleaseBoxBuffer)(dec);
}
JxlDecoderStatus fz_JxlDecoderSetBoxBuffer(JxlDecoder* dec, uint8_t* data, size_t size) {
    return FZ_SYMBOL(0, JxlDecoderSetBoxBuffer)(dec, data, size);
}
JxlDecoderStatus fz_JxlDecoderSetDecompressBoxes(JxlDecoder* dec, int decompress) {
    return FZ_SYMBOL(0, JxlDecoderSetDecompressBoxes)(dec, decompress);
}
JxlDecoderStatus fz_JxlDecoderSetImageOutBuffer(JxlDecoder* dec, const JxlPixelFormat* format, void* buffer, size_t size) {
    return FZ_SYMBOL(0, JxlDecoderSetImageOutBuffer)(dec, format, buffer, size);
}
JxlDecoderStatus fz_JxlDecoderSetInput(JxlDecoder* dec, const uint8_t* data, size_t size) {
    return FZ_SYMBOL(0, JxlDecoderSetInput)(dec, data, size);
}
JxlDecoderStatus fz_JxlDecoderSetKeepOrientation(JxlDecoder* dec, int skip_reorientation) {
    return FZ_SYMBOL(0, JxlDecoderSetKeepOrientation)(dec, skip_reorientation);
}
JxlDecoderStatus fz_JxlDecoderSetParallelRunner(JxlDecoder* dec, JxlParallelRunner parallel_runner, void* parallel_runner_opaque) {
    return FZ_SYMBOL(0, JxlDecoderSetParallelRunner)(dec, parallel_runner, parallel_runner_opaque);
}
JxlDecoderStatus fz_JxlDecoderSetUnpremultiplyAlpha(JxlDecoder* dec, int unpremul_alpha) {
    return FZ_SYMBOL(0, JxlDecoderSetUnpremultiplyAlpha)(dec, unpremul_alpha);
}
void fz_JxlDecoderSkipFrames(JxlDecoder* dec, size_t amount) {
    FZ_SYMBOL(0, JxlDecoderSkipFrames)(dec, amount);
}
JxlDecoderStatus fz_JxlDecoderSubscribeEvents(JxlDecoder* dec, int events_wanted) {
    return FZ_SYMBOL(0, JxlDecoderSubscribeEvents)(dec, events_wanted);
}
JxlEncoderStatus fz_JxlEncoderAddBox(JxlEncoder* enc, const JxlBoxType type, const uint8_t* contents, size_t size, int compress_box) {
    return FZ_SYMBOL(0, JxlEncoderAddBox)(enc, type, contents, size, compress_box);
}
JxlEncoderStatus fz_JxlEncoderAddImageFrame(const JxlEncoderFrameSettings* frame_settings, const JxlPixelFormat* pixel_format, const void* buffer, size_t size) {
    return FZ_SYMBOL(0, JxlEncoderAddImageFrame)(frame_settings, pixel_format, buffer, size);
}
void fz_JxlEncoderCloseInput(JxlEncoder* enc) {
    FZ_SYMBOL(0, JxlEncoderCloseInput)(enc);
}
JxlEncoder* fz_JxlEncoderCreate(const JxlMemoryManager* memory_manager) {
    return FZ_SYMBOL(0, JxlEncoderCreate)(memory_manager);
}
void fz_JxlEncoderDestroy(JxlEncoder* enc) {
    FZ_SYMBOL(0, JxlEncoderDestroy)(enc);
}
JxlEncoderFrameSettings* fz_JxlEncoderFrameSettingsCreate(JxlEncoder* enc, const JxlEncoderFrameSettings* source) {
    return FZ_SYMBOL(0, JxlEncoderFrameSettingsCreate)(enc, source);
}
JxlEncoderStatus fz_JxlEncoderFrameSettingsSetOption(JxlEncoderFrameSettings* frame_settings, JxlEncoderFrameSettingId option, int64_t value) {
    return FZ_SYMBOL(0, JxlEncoderFrameSettingsSetOption)(frame_settings, option, value);
}
JxlEncoderError fz_JxlEncoderGetError(JxlEncoder* enc) {
    return FZ_SYMBOL(0, JxlEncoderGetError)(enc);
}
void fz_JxlEncoderInitBasicInfo(JxlBasicInfo* info) {
    FZ_SYMBOL(0, JxlEncoderInitBasicInfo)(info);
}
JxlEncoderStatus fz_JxlEncoderProcessOutput(JxlEncoder* enc, uint8_t** next_out, size_t* avail_out) {
    return FZ_SYMBOL(0, JxlEncoderProcessOutput)(enc, next_out, avail_out);
}
JxlEncoderStatus fz_JxlEncoderSetBasicInfo(JxlEncoder* enc, const JxlBasicInfo* info) {
    return FZ_SYMBOL(0, JxlEncoderSetBasicInfo)(enc, info);
}
JxlEncoderStatus fz_JxlEncoderSetColorEncoding(JxlEncoder* enc, const JxlColorEncoding* color) {
    return FZ_SYMBOL(0, JxlEncoderSetColorEncoding)(enc, color);
}
JxlEncoderStatus fz_JxlEncoderSetFrameDistance(JxlEncoderFrameSettings* frame_settings, float distance) {
    return FZ_SYMBOL(0, JxlEncoderSetFrameDistance)(frame_settings, distance);
}
JxlEncoderStatus fz_JxlEncoderSetFrameLossless(JxlEncoderFrameSettings* frame_settings, int lossless) {
    return FZ_SYMBOL(0, JxlEncoderSetFrameLossless)(frame_settings, lossless);
}
JxlEncoderStatus fz_JxlEncoderSetICCProfile(JxlEncoder* enc, const uint8_t* icc_profile, size_t size) {
    return FZ_SYMBOL(0, JxlEncoderSetICCProfile)(enc, icc_profile, size);
}
JxlEncoderStatus fz_JxlEncoderSetParallelRunner(JxlEncoder* enc, JxlParallelRunner parallel_runner, void* parallel_runner_opaque) {
    return FZ_SYMBOL(0, JxlEncoderSetParallelRunner)(enc, parallel_runner, parallel_runner_opaque);
}
JxlEncoderStatus fz_JxlEncoderUseBoxes(JxlEncoder* enc) {
    return FZ_SYMBOL(0, JxlEncoderUseBoxes)(enc);
}
JxlEncoderStatus fz_JxlEncoderUseContainer(JxlEncoder* enc, int use_container) {
    return FZ_SYMBOL(0, JxlEncoderUseContainer)(enc, use_container);
}
void* fz_JxlThreadParallelRunnerCreate(const JxlMemoryManager* memory_manager, size_t num_worker_threads) {
    return FZ_SYMBOL(1, JxlThreadParallelRunnerCreate)(memory_manager, num_worker_threads);
}
void fz_JxlThreadParallelRunnerDestroy(void* runner_opaque) {
    FZ_SYMBOL(1, JxlThreadParallelRunnerDestroy)(runner_opaque);
}
JxlParallelRetCode fz_JxlThreadParallelRunner(void* runner_opaque, void* jpegxl_opaque, JxlParallelRunInit init, JxlParallelRunFunction func, uint32_t start_range, uint32_t end_range) {
    return FZ_SYMBOL(1, JxlThreadParallelRunner)(runner_opaque, jpegxl_opaque, init, func, start_range, end_range);
}
