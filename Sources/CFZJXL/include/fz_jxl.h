// fz_jxl.h: libjxl and libjxl_threads, opened on first use (fz_jxl_loader.c says why). Each
// fz_NAME has the prototype of libjxl's NAME and forwards to it; Swift calls these
// (Sources/FZJXL/JXLCodec.swift), and libjxl's headers, included for their types and
// constants, are never linked. Remade by Tools/shims/make-forwarders.py.
#ifndef FZ_JXL_H
#define FZ_JXL_H

#include <jxl/decode.h>
#include <jxl/encode.h>
#include <jxl/thread_parallel_runner.h>

#ifdef __cplusplus
extern "C" {
#endif

void fz_JxlColorEncodingSetToSRGB(JxlColorEncoding* color_encoding, int is_gray);
void fz_JxlDecoderCloseInput(JxlDecoder* dec);
JxlDecoder* fz_JxlDecoderCreate(const JxlMemoryManager* memory_manager);
void fz_JxlDecoderDestroy(JxlDecoder* dec);
JxlDecoderStatus fz_JxlDecoderFlushImage(JxlDecoder* dec);
JxlDecoderStatus fz_JxlDecoderGetBasicInfo(const JxlDecoder* dec, JxlBasicInfo* info);
JxlDecoderStatus fz_JxlDecoderGetBoxType(JxlDecoder* dec, JxlBoxType type, int decompressed);
JxlDecoderStatus fz_JxlDecoderGetColorAsEncodedProfile(const JxlDecoder* dec, const JxlPixelFormat* unused_format, JxlColorProfileTarget target, JxlColorEncoding* color_encoding);
JxlDecoderStatus fz_JxlDecoderGetColorAsICCProfile(const JxlDecoder* dec, const JxlPixelFormat* unused_format, JxlColorProfileTarget target, uint8_t* icc_profile, size_t size);
JxlDecoderStatus fz_JxlDecoderGetFrameHeader(const JxlDecoder* dec, JxlFrameHeader* header);
JxlDecoderStatus fz_JxlDecoderGetICCProfileSize(const JxlDecoder* dec, const JxlPixelFormat* unused_format, JxlColorProfileTarget target, size_t* size);
JxlDecoderStatus fz_JxlDecoderImageOutBufferSize(const JxlDecoder* dec, const JxlPixelFormat* format, size_t* size);
JxlDecoderStatus fz_JxlDecoderProcessInput(JxlDecoder* dec);
size_t fz_JxlDecoderReleaseBoxBuffer(JxlDecoder* dec);
JxlDecoderStatus fz_JxlDecoderSetBoxBuffer(JxlDecoder* dec, uint8_t* data, size_t size);
JxlDecoderStatus fz_JxlDecoderSetDecompressBoxes(JxlDecoder* dec, int decompress);
JxlDecoderStatus fz_JxlDecoderSetImageOutBuffer(JxlDecoder* dec, const JxlPixelFormat* format, void* buffer, size_t size);
JxlDecoderStatus fz_JxlDecoderSetInput(JxlDecoder* dec, const uint8_t* data, size_t size);
JxlDecoderStatus fz_JxlDecoderSetKeepOrientation(JxlDecoder* dec, int skip_reorientation);
JxlDecoderStatus fz_JxlDecoderSetParallelRunner(JxlDecoder* dec, JxlParallelRunner parallel_runner, void* parallel_runner_opaque);
JxlDecoderStatus fz_JxlDecoderSetUnpremultiplyAlpha(JxlDecoder* dec, int unpremul_alpha);
void fz_JxlDecoderSkipFrames(JxlDecoder* dec, size_t amount);
JxlDecoderStatus fz_JxlDecoderSubscribeEvents(JxlDecoder* dec, int events_wanted);
JxlEncoderStatus fz_JxlEncoderAddBox(JxlEncoder* enc, const JxlBoxType type, const uint8_t* contents, size_t size, int compress_box);
JxlEncoderStatus fz_JxlEncoderAddImageFrame(const JxlEncoderFrameSettings* frame_settings, const JxlPixelFormat* pixel_format, const void* buffer, size_t size);
void fz_JxlEncoderCloseInput(JxlEncoder* enc);
JxlEncoder* fz_JxlEncoderCreate(const JxlMemoryManager* memory_manager);
void fz_JxlEncoderDestroy(JxlEncoder* enc);
JxlEncoderFrameSettings* fz_JxlEncoderFrameSettingsCreate(JxlEncoder* enc, const JxlEncoderFrameSettings* source);
JxlEncoderStatus fz_JxlEncoderFrameSettingsSetOption(JxlEncoderFrameSettings* frame_settings, JxlEncoderFrameSettingId option, int64_t value);
JxlEncoderError fz_JxlEncoderGetError(JxlEncoder* enc);
void fz_JxlEncoderInitBasicInfo(JxlBasicInfo* info);
JxlEncoderStatus fz_JxlEncoderProcessOutput(JxlEncoder* enc, uint8_t** next_out, size_t* avail_out);
JxlEncoderStatus fz_JxlEncoderSetBasicInfo(JxlEncoder* enc, const JxlBasicInfo* info);
JxlEncoderStatus fz_JxlEncoderSetColorEncoding(JxlEncoder* enc, const JxlColorEncoding* color);
JxlEncoderStatus fz_JxlEncoderSetFrameDistance(JxlEncoderFrameSettings* frame_settings, float distance);
JxlEncoderStatus fz_JxlEncoderSetFrameLossless(JxlEncoderFrameSettings* frame_settings, int lossless);
JxlEncoderStatus fz_JxlEncoderSetICCProfile(JxlEncoder* enc, const uint8_t* icc_profile, size_t size);
JxlEncoderStatus fz_JxlEncoderSetParallelRunner(JxlEncoder* enc, JxlParallelRunner parallel_runner, void* parallel_runner_opaque);
JxlEncoderStatus fz_JxlEncoderUseBoxes(JxlEncoder* enc);
JxlEncoderStatus fz_JxlEncoderUseContainer(JxlEncoder* enc, int use_container);
void* fz_JxlThreadParallelRunnerCreate(const JxlMemoryManager* memory_manager, size_t num_worker_threads);
void fz_JxlThreadParallelRunnerDestroy(void* runner_opaque);
JxlParallelRetCode fz_JxlThreadParallelRunner(void* runner_opaque, void* jpegxl_opaque, JxlParallelRunInit init, JxlParallelRunFunction func, uint32_t start_range, uint32_t end_range);

/* Whether libjxl (and libjxl_threads) opens and has every function the forwarders call: 1, or 0 with the dlerror
   text in `why` (fz_loader_available, checked once). Asked before the first forwarder. */
int fz_jxl_available(char *why, size_t size);
/* The soname of library `slot` (0, 1...), or NULL past the last. */
const char *fz_jxl_soname(int slot);

#ifdef __cplusplus
}
#endif

#endif
