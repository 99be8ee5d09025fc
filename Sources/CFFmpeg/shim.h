// FFmpeg's demuxers, decoders and scaler (libavformat59, libavcodec59, libswscale6,
// libavutil57 in Debian bookworm; the -dev packages for the headers): status-returning C, no
// longjmp. Headers only: CFZVideo's fz_video.c drives them through forwarders to libraries
// opened on first use (fz_video_loader.c says why).
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
