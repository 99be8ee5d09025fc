// Length: one library's driver (open, seek, decode, scale) and its loader table, kept together
// so that FFmpeg's pointers never leave this file.
//
// Videos through FFmpeg's libraries, opened on first use: libavformat, libavcodec, libswscale
// and libavutil bring dozens of codec libraries with them (x264, x265, dav1d, vpx, aom...), whose
// loading and relocation would cost every forcezoom run milliseconds before main, video or not.
// So forcezoom does not link them: every FFmpeg function called here goes through
// FZ_LOADER_SYMBOL to the library opened with dlopen the first time (fz_loader.h), and a machine
// without them reads every other format; a video then fails with the soname and the package
// (fz_video_available, FormatLibrary+Video.swift). The sonames come from the headers' major
// versions: FFmpeg changes its ABI with each major version.
//
// The bounds (fz_video_limits): libavformat reads at most `probe_bytes` to find the streams;
// the decoder refuses frames over `max_pixels` (also while probing); every read checks the
// wall-time deadline (the interrupt callback), and one frame_at reads at most `max_packets`
// packets, so a long or hostile video costs a bounded time: seek, then decode from the keyframe.
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include "fz_loader.h"
#include "fz_video.h"

#define FZ_STR2(x) #x
#define FZ_STR(x) FZ_STR2(x)

// Every function this file calls, by library slot (fz_loader_available resolves them all
// before the first call).
static const fz_loader_entry fz_video_symbols[] = {
    {0, "avformat_alloc_context"}, {0, "avformat_open_input"}, {0, "avformat_find_stream_info"},
    {0, "av_find_best_stream"},    {0, "av_read_frame"},       {0, "av_seek_frame"},
    {0, "avformat_close_input"},   {0, "avio_alloc_context"},  {0, "avio_context_free"},
    {0, "av_stream_get_side_data"}, {1, "avcodec_find_decoder"}, {1, "avcodec_alloc_context3"},
    {1, "avcodec_parameters_to_context"}, {1, "avcodec_open2"}, {1, "avcodec_send_packet"},
    {1, "avcodec_receive_frame"},  {1, "avcodec_free_context"}, {1, "avcodec_flush_buffers"},
    {1, "av_packet_alloc"},        {1, "av_packet_free"},      {1, "av_packet_unref"},
    {1, "avcodec_get_name"},       {2, "sws_getContext"},      {2, "sws_scale"},
    {2, "sws_freeContext"},        {2, "sws_setColorspaceDetails"}, {2, "sws_getCoefficients"},
    {3, "av_frame_alloc"},         {3, "av_frame_free"},       {3, "av_frame_unref"},
    {3, "av_frame_move_ref"},      {3, "av_display_rotation_get"}, {3, "av_log_set_level"},
    {3, "av_malloc"},              {3, "av_free"},             {3, "av_pix_fmt_desc_get"},
    {3, "av_strerror"},            {3, "av_dict_set"},         {3, "av_dict_free"},
    {3, "av_get_pix_fmt_name"},
};

static fz_loader fz_video_loader = {
    .format = "video",
    .count = 4,
    .names = {"libavformat.so." FZ_STR(LIBAVFORMAT_VERSION_MAJOR), "libavcodec.so." FZ_STR(LIBAVCODEC_VERSION_MAJOR),
              "libswscale.so." FZ_STR(LIBSWSCALE_VERSION_MAJOR), "libavutil.so." FZ_STR(LIBAVUTIL_VERSION_MAJOR)},
    .symbols = fz_video_symbols,
    .symbol_count = sizeof fz_video_symbols / sizeof fz_video_symbols[0],
};

int fz_video_available(char *why, size_t size) { return fz_loader_available(&fz_video_loader, why, size); }
const char *fz_video_soname(int slot) { return fz_loader_soname(&fz_video_loader, slot); }

// FFmpeg's `name` (library `slot`), looked up once.
#define AV(slot, name) FZ_LOADER_SYMBOL(&fz_video_loader, slot, name)

struct fz_video {
    FILE *file;
    AVFormatContext *format;
    AVIOContext *io;
    AVCodecContext *codec;
    AVFrame *frame;   // the kept frame
    AVFrame *scratch; // the one being received
    AVPacket *packet;
    int stream;
    AVRational time_base;
    int64_t start_pts;
    int max_packets;
    double deadline; // CLOCK_MONOTONIC seconds
    int color_space, color_range, full_range;
};

static double fz_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

// libavformat calls it during every blocking read: non-zero stops the read (AVERROR_EXIT).
static int fz_video_interrupt(void *opaque) {
    const fz_video *video = opaque;
    return fz_now() > video->deadline;
}

static int fz_video_read(void *opaque, uint8_t *buffer, int size) {
    fz_video *video = opaque;
    size_t n = fread(buffer, 1, (size_t)size, video->file);
    return n == 0 ? AVERROR_EOF : (int)n;
}

static int64_t fz_video_seek(void *opaque, int64_t offset, int whence) {
    fz_video *video = opaque;
    if (whence & AVSEEK_SIZE) {
        struct stat st;
        return fstat(fileno(video->file), &st) == 0 && S_ISREG(st.st_mode) ? (int64_t)st.st_size : -1;
    }
    whence &= ~AVSEEK_FORCE;
    if (fseeko(video->file, (off_t)offset, whence) != 0) return -1;
    return (int64_t)ftello(video->file);
}

static void fz_say(char *why, size_t size, const char *what, int error) {
    if (!why || size == 0) return;
    if (error == 0) {
        snprintf(why, size, "%s", what);
        return;
    }
    char text[128] = "";
    if (error == AVERROR_EXIT) snprintf(text, sizeof text, "out of time");
    else if (AV(3, av_strerror)(error, text, sizeof text) < 0) snprintf(text, sizeof text, "error %d", error);
    snprintf(why, size, "%s: %s", what, text);
}

void fz_video_close(fz_video *video) {
    if (!video) return;
    if (video->packet) AV(1, av_packet_free)(&video->packet);
    if (video->frame) AV(3, av_frame_free)(&video->frame);
    if (video->scratch) AV(3, av_frame_free)(&video->scratch);
    if (video->codec) AV(1, avcodec_free_context)(&video->codec);
    if (video->format) AV(0, avformat_close_input)(&video->format);
    if (video->io) {
        AV(3, av_free)(video->io->buffer);
        AV(0, avio_context_free)(&video->io);
    }
    free(video);
}

// The display matrix's 2x2 part, read as an EXIF orientation: FFmpeg's matrix maps a stored
// (x, y) to the shown (a*x + c*y, b*x + d*y); right angles and mirrors only (0 otherwise).
static int fz_orientation(const int32_t *m, double *rotation, int *mirrored) {
    *rotation = 0;
    *mirrored = 0;
    if (!m) return 1;
    double r = -AV(3, av_display_rotation_get)(m);
    if (isnan(r)) return 0;
    r -= 360 * floor(r / 360 + 0.9 / 360);
    *rotation = r;
    int a = m[0] > 32768 ? 1 : m[0] < -32768 ? -1 : 0, b = m[1] > 32768 ? 1 : m[1] < -32768 ? -1 : 0;
    int c = m[3] > 32768 ? 1 : m[3] < -32768 ? -1 : 0, d = m[4] > 32768 ? 1 : m[4] < -32768 ? -1 : 0;
    *mirrored = (int64_t)m[0] * m[4] - (int64_t)m[1] * m[3] < 0;
    if (b == 0 && c == 0) {
        if (a == 1 && d == 1) return 1;
        if (a == -1 && d == 1) return 2;
        if (a == -1 && d == -1) return 3;
        if (a == 1 && d == -1) return 4;
    } else if (a == 0 && d == 0) {
        if (b == 1 && c == 1) return 5;  // transpose
        if (b == 1 && c == -1) return 6; // 90 clockwise: the top row becomes the right column
        if (b == -1 && c == -1) return 7;
        if (b == -1 && c == 1) return 8;
    }
    return 0;
}

static void fz_facts(fz_video *video, AVStream *st, const AVCodecParameters *par, fz_video_facts *facts) {
    memset(facts, 0, sizeof *facts);
    facts->width = par->width;
    facts->height = par->height;
    AVRational sar = st->sample_aspect_ratio.num > 0 ? st->sample_aspect_ratio : par->sample_aspect_ratio;
    facts->sar_num = sar.num > 0 && sar.den > 0 ? sar.num : 1;
    facts->sar_den = sar.num > 0 && sar.den > 0 ? sar.den : 1;
    size_t side = 0;
    const int32_t *matrix = (const int32_t *)AV(0, av_stream_get_side_data)(st, AV_PKT_DATA_DISPLAYMATRIX, &side);
    facts->orientation = fz_orientation(side >= 9 * sizeof(int32_t) ? matrix : NULL, &facts->rotation, &facts->mirrored);
    AVFormatContext *f = video->format;
    if (st->duration != AV_NOPTS_VALUE && st->duration > 0) facts->duration = (double)st->duration * av_q2d(st->time_base);
    else if (f->duration != AV_NOPTS_VALUE && f->duration > 0) facts->duration = (double)f->duration / AV_TIME_BASE;
    else facts->duration = -1;
    facts->start = st->start_time != AV_NOPTS_VALUE ? (double)st->start_time * av_q2d(st->time_base) : 0;
    AVRational rate = st->avg_frame_rate.num > 0 && st->avg_frame_rate.den > 0 ? st->avg_frame_rate : st->r_frame_rate;
    facts->frame_rate = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : 0;
    facts->frames = st->nb_frames;
    const AVPixFmtDescriptor *desc = AV(3, av_pix_fmt_desc_get)((enum AVPixelFormat)par->format);
    facts->bit_depth = desc ? desc->comp[0].depth : (par->bits_per_raw_sample > 0 ? par->bits_per_raw_sample : 8);
    facts->color_trc = par->color_trc;
    facts->color_primaries = par->color_primaries;
    facts->color_space = par->color_space;
    facts->color_range = par->color_range;
    for (unsigned i = 0; i < f->nb_streams; i++) {
        enum AVMediaType type = f->streams[i]->codecpar->codec_type;
        if (type == AVMEDIA_TYPE_AUDIO) facts->audio_streams++;
        if (type == AVMEDIA_TYPE_VIDEO && !(f->streams[i]->disposition & AV_DISPOSITION_ATTACHED_PIC))
            facts->video_streams++;
    }
    snprintf(facts->codec, sizeof facts->codec, "%s", AV(1, avcodec_get_name)(par->codec_id));
    snprintf(facts->container, sizeof facts->container, "%s", f->iformat ? f->iformat->name : "");
    const char *pix = AV(3, av_get_pix_fmt_name)((enum AVPixelFormat)par->format);
    snprintf(facts->pixel_format, sizeof facts->pixel_format, "%s", pix ? pix : "unknown");
}

// Whether a stream is H.264 whose avcC names Baseline, Main, Extended or High: 8 bits a
// sample (4:2:0; High may be 4:0:0, which a poster converts alike). Other profiles (High 10,
// 4:2:2, 4:4:4) are probed by decoding, as FFmpeg does.
static int fz_eight_bit_h264(const AVCodecParameters *par) {
    if (par->codec_id != AV_CODEC_ID_H264 || par->extradata_size < 7 || par->extradata[0] != 1) return 0;
    int profile = par->extradata[1];
    return profile == 66 || profile == 77 || profile == 88 || profile == 100;
}

// The codec for stream `index`, opened with the limits (max_pixels also bounds what it allocates).
static int fz_open_codec(fz_video *video, const AVCodec *decoder, const fz_video_limits *limits, char *why, size_t size) {
    AVStream *st = video->format->streams[video->stream];
    video->codec = AV(1, avcodec_alloc_context3)(decoder);
    if (!video->codec) return fz_say(why, size, "out of memory for the decoder", 0), 0;
    int e = AV(1, avcodec_parameters_to_context)(video->codec, st->codecpar);
    if (e < 0) return fz_say(why, size, "the stream's parameters do not fit its codec", e), 0;
    video->codec->thread_count = limits->threads > 0 ? limits->threads : 1;
    // Frame threading decodes several frames at once, each thread with its own references: it
    // speeds a run of frames (--time) and only costs memory (a 4K HEVC poster: 190 MB against
    // 110) for the one keyframe a poster candidate is.
    video->codec->thread_type = limits->frame_threads ? FF_THREAD_FRAME | FF_THREAD_SLICE : FF_THREAD_SLICE;
    if (limits->max_pixels > 0) video->codec->max_pixels = limits->max_pixels;
    video->codec->pkt_timebase = st->time_base;
    e = AV(1, avcodec_open2)(video->codec, decoder, NULL);
    if (e < 0) return fz_say(why, size, "FFmpeg cannot open the decoder", e), 0;
    return 1;
}

fz_video *fz_video_open(FILE *file, const fz_video_limits *limits, fz_video_facts *facts, char *why, size_t size) {
    AV(3, av_log_set_level)(AV_LOG_QUIET);
    fz_video *video = calloc(1, sizeof *video);
    if (!video) return fz_say(why, size, "out of memory", 0), NULL;
    video->file = file;
    video->deadline = fz_now() + (limits->seconds > 0 ? limits->seconds : 1e9);
    video->max_packets = limits->max_packets > 0 ? limits->max_packets : 1 << 30;
    video->format = AV(0, avformat_alloc_context)();
    const int buffer_size = 1 << 16;
    uint8_t *buffer = AV(3, av_malloc)(buffer_size);
    if (!video->format || !buffer) {
        if (buffer) AV(3, av_free)(buffer);
        fz_video_close(video);
        return fz_say(why, size, "out of memory", 0), NULL;
    }
    video->io = AV(0, avio_alloc_context)(buffer, buffer_size, 0, video, fz_video_read, NULL, fz_video_seek);
    if (!video->io) {
        AV(3, av_free)(buffer);
        fz_video_close(video);
        return fz_say(why, size, "out of memory", 0), NULL;
    }
    video->format->pb = video->io;
    video->format->flags |= AVFMT_FLAG_CUSTOM_IO;
    video->format->interrupt_callback.callback = fz_video_interrupt;
    video->format->interrupt_callback.opaque = video;
    video->format->probesize = limits->probe_bytes > 32 ? limits->probe_bytes : 5000000;
    video->format->max_analyze_duration = 2 * AV_TIME_BASE;
    int e = AV(0, avformat_open_input)(&video->format, NULL, NULL, NULL);
    if (e < 0) {
        // avformat_open_input frees the context on failure.
        fz_video_close(video);
        return fz_say(why, size, "FFmpeg cannot read the container", e), NULL;
    }
    // The sizes the container claims, against the pixel limit before anything is probed or
    // decoded: a video stream over it is returned undecoded, for Swift to refuse with the numbers.
    unsigned n = video->format->nb_streams;
    for (unsigned i = 0; i < n && limits->max_pixels > 0; i++) {
        AVStream *st = video->format->streams[i];
        const AVCodecParameters *par = st->codecpar;
        if (par->codec_type == AVMEDIA_TYPE_VIDEO && (int64_t)par->width * par->height > limits->max_pixels) {
            video->stream = (int)i;
            fz_facts(video, st, par, facts);
            return video;
        }
    }
    // Probing decodes a frame of streams whose header lacks their size: bounded as ours is.
    AVDictionary **options = n ? calloc(n, sizeof *options) : NULL;
    char pixels[32];
    snprintf(pixels, sizeof pixels, "%lld", (long long)(limits->max_pixels > 0 ? limits->max_pixels : INT32_MAX));
    int eight_bit_h264 = 0;
    for (unsigned i = 0; options && i < n; i++) {
        AV(3, av_dict_set)(&options[i], "max_pixels", pixels, 0);
        AV(3, av_dict_set)(&options[i], "threads", "1", 0);
        // H.264's probe decodes about 7 frames to guess its reorder delay (10-15 ms of a
        // 1080p poster's 100); a poster needs neither that delay nor the pixel format, which
        // the avcC's profile already says for the 8-bit 4:2:0 profiles (and HEVC's probe
        // decodes nothing).
        if (limits->keyframe_probe && fz_eight_bit_h264(video->format->streams[i]->codecpar)) {
            AV(3, av_dict_set)(&options[i], "skip_frame", "nonkey", 0);
            eight_bit_h264 = 1;
        }
    }
    e = AV(0, avformat_find_stream_info)(video->format, options);
    for (unsigned i = 0; options && i < n; i++) AV(3, av_dict_free)(&options[i]);
    free(options);
    if (e < 0) {
        fz_video_close(video);
        return fz_say(why, size, "FFmpeg cannot find the streams", e), NULL;
    }
    const AVCodec *decoder = NULL;
    video->stream = AV(0, av_find_best_stream)(video->format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (video->stream < 0) {
        int audio = 0;
        for (unsigned i = 0; i < n; i++) audio += video->format->streams[i]->codecpar->codec_type == AVMEDIA_TYPE_AUDIO;
        int undecodable = video->stream == AVERROR_DECODER_NOT_FOUND;
        fz_video_close(video);
        return fz_say(why, size,
                      undecodable ? "its video stream's codec is not one Debian's libavcodec decodes"
                      : audio     ? "no video stream, only audio"
                                  : "no video stream",
                      0),
               NULL;
    }
    AVStream *st = video->format->streams[video->stream];
    fz_facts(video, st, st->codecpar, facts);
    if (eight_bit_h264 && st->codecpar->format == AV_PIX_FMT_NONE && fz_eight_bit_h264(st->codecpar)) {
        facts->bit_depth = 8;
        snprintf(facts->pixel_format, sizeof facts->pixel_format, "yuv420p");
    }
    video->time_base = st->time_base;
    video->start_pts = st->start_time != AV_NOPTS_VALUE ? st->start_time : 0;
    video->color_space = st->codecpar->color_space;
    video->color_range = st->codecpar->color_range;
    if (facts->width <= 0 || facts->height <= 0) {
        fz_video_close(video);
        return fz_say(why, size, "its video stream has no size", 0), NULL;
    }
    if (limits->max_pixels > 0 && (int64_t)facts->width * facts->height > limits->max_pixels) {
        // Swift says it with the numbers; nothing is opened for it.
        return video;
    }
    video->packet = AV(1, av_packet_alloc)();
    video->frame = AV(3, av_frame_alloc)();
    video->scratch = AV(3, av_frame_alloc)();
    if (!video->packet || !video->frame || !video->scratch) {
        fz_video_close(video);
        return fz_say(why, size, "out of memory", 0), NULL;
    }
    if (!fz_open_codec(video, decoder, limits, why, size)) {
        fz_video_close(video);
        return NULL;
    }
    return video;
}

// The time of a decoded frame, seconds from the stream's start.
static double fz_frame_time(const fz_video *video, const AVFrame *frame) {
    int64_t pts = frame->best_effort_timestamp != AV_NOPTS_VALUE ? frame->best_effort_timestamp : frame->pts;
    if (pts == AV_NOPTS_VALUE) return 0;
    return (double)(pts - video->start_pts) * av_q2d(video->time_base);
}

// Takes the frames the codec has ready: 1 when the wanted one is kept, 0 to go on, < 0 error.
static int fz_take(fz_video *video, double seconds, int keyframe, int *kept) {
    for (;;) {
        int e = AV(1, avcodec_receive_frame)(video->codec, video->scratch);
        if (e == AVERROR(EAGAIN) || e == AVERROR_EOF) return 0;
        if (e < 0) return e;
        double t = fz_frame_time(video, video->scratch);
        AV(3, av_frame_unref)(video->frame);
        AV(3, av_frame_move_ref)(video->frame, video->scratch);
        *kept = 1;
        if (keyframe || t >= seconds - 1e-6) return 1;
    }
}

void fz_video_set_fast(fz_video *video, int fast) {
    if (video->codec) video->codec->skip_loop_filter = fast ? AVDISCARD_ALL : AVDISCARD_DEFAULT;
}

int fz_video_frame_at(fz_video *video, double seconds, int keyframe, double *shown, char *why, size_t size) {
    if (!video->codec) return fz_say(why, size, "no decoder", 0), 0;
    int64_t target = video->start_pts + (int64_t)llround(seconds / av_q2d(video->time_base));
    // A stream that cannot seek is read from where it is (the first call starts at the start).
    AV(0, av_seek_frame)(video->format, video->stream, target, AVSEEK_FLAG_BACKWARD);
    AV(1, avcodec_flush_buffers)(video->codec);
    video->codec->skip_frame = keyframe ? AVDISCARD_NONKEY : AVDISCARD_DEFAULT;
    AV(3, av_frame_unref)(video->frame);
    int kept = 0, done = 0, bad = 0, e = 0;
    for (int packets = 0; !done;) {
        if (fz_now() > video->deadline) return fz_say(why, size, "out of time decoding the frame", 0), 0;
        e = AV(0, av_read_frame)(video->format, video->packet);
        if (e == AVERROR_EXIT) return fz_say(why, size, "out of time reading the video", 0), 0;
        if (e < 0) break; // the end (or a cut file): drain below
        if (video->packet->stream_index != video->stream) {
            AV(1, av_packet_unref)(video->packet);
            continue;
        }
        if (++packets > video->max_packets) {
            AV(1, av_packet_unref)(video->packet);
            return fz_say(why, size, "no frame within the packets one poster may read", 0), 0;
        }
        int key = (video->packet->flags & AV_PKT_FLAG_KEY) != 0;
        e = AV(1, avcodec_send_packet)(video->codec, video->packet);
        AV(1, av_packet_unref)(video->packet);
        // A broken packet is passed over (the next keyframe may decode); many are not.
        if (e < 0 && e != AVERROR(EAGAIN) && ++bad > 64) return fz_say(why, size, "the video does not decode", e), 0;
        // A keyframe alone is drained at once: a decoder holds a frame back until its reorder
        // window fills, and with only keyframes decoded that means decoding the next keyframe,
        // and HEVC makes up the skipped frames' references meanwhile (a 4K poster: 7 frames
        // allocated and 147 MB, against 1 and 58 MB drained).
        if (keyframe && key && e >= 0) AV(1, avcodec_send_packet)(video->codec, NULL);
        int r = fz_take(video, seconds, keyframe, &kept);
        if (r < 0 && ++bad > 64) return fz_say(why, size, "the video does not decode", r), 0;
        done = r == 1;
        // A drained keyframe that gave nothing: the decoder takes packets again from the next.
        if (!done && keyframe && key && e >= 0) AV(1, avcodec_flush_buffers)(video->codec);
    }
    if (!done) {
        AV(1, avcodec_send_packet)(video->codec, NULL);
        int r = fz_take(video, seconds, keyframe, &kept);
        (void)r;
    }
    if (!kept) return fz_say(why, size, "no frame decodes", e < 0 && e != AVERROR_EOF ? e : 0), 0;
    *shown = fz_frame_time(video, video->frame);
    return 1;
}

// A scaler from the kept frame through the stream's matrix and range, as FFmpeg's own scale
// filter sets it from the frame (its colour space and range, else the stream's).
static struct SwsContext *fz_scaler(fz_video *video, int width, int height, enum AVPixelFormat to, int flags) {
    AVFrame *f = video->frame;
    struct SwsContext *sws = AV(2, sws_getContext)(f->width, f->height, (enum AVPixelFormat)f->format, width, height, to,
                                                   flags, NULL, NULL, NULL);
    if (!sws) return NULL;
    int space = f->colorspace != AVCOL_SPC_UNSPECIFIED ? f->colorspace : video->color_space;
    int range = f->color_range != AVCOL_RANGE_UNSPECIFIED ? f->color_range : video->color_range;
    enum AVPixelFormat from = (enum AVPixelFormat)f->format;
    // The yuvj formats are full range whatever the tag says.
    int full = range == AVCOL_RANGE_JPEG || from == AV_PIX_FMT_YUVJ420P || from == AV_PIX_FMT_YUVJ422P ||
               from == AV_PIX_FMT_YUVJ444P;
    const int *table = AV(2, sws_getCoefficients)(space >= 0 && space < 11 ? space : SWS_CS_DEFAULT);
    AV(2, sws_setColorspaceDetails)(sws, table, full, AV(2, sws_getCoefficients)(SWS_CS_DEFAULT), 1, 0, 1 << 16,
                                    1 << 16);
    return sws;
}

int fz_video_measure(fz_video *video, double *mean, double *variance) {
    AVFrame *f = video->frame;
    if (!f || f->width <= 0 || f->height <= 0) return 0;
    int w = f->width < 64 ? f->width : 64, h = f->height < 64 ? f->height : 64;
    uint8_t luma[64 * 64];
    struct SwsContext *sws = fz_scaler(video, w, h, AV_PIX_FMT_GRAY8, SWS_AREA);
    if (!sws) return 0;
    uint8_t *planes[4] = {luma, NULL, NULL, NULL};
    int strides[4] = {64, 0, 0, 0};
    AV(2, sws_scale)(sws, (const uint8_t *const *)f->data, f->linesize, 0, f->height, planes, strides);
    AV(2, sws_freeContext)(sws);
    double sum = 0, squares = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            double v = luma[y * 64 + x];
            sum += v;
            squares += v * v;
        }
    double count = (double)w * h;
    *mean = sum / count;
    *variance = squares / count - *mean * *mean;
    return 1;
}

int fz_video_render(fz_video *video, int width, int height, int deep, uint8_t *out, size_t stride, char *why,
                    size_t size) {
    AVFrame *f = video->frame;
    if (!f || f->width <= 0) return fz_say(why, size, "no frame", 0), 0;
    // Bicubic, as FFmpeg's command line scales: a frame at its own size converts as ffmpeg's
    // does. Reduced in both directions (a thumbnail's or poster's decode, which the resampler
    // then filters at least 2x again), an area average: what the still path's block average
    // does, with a quarter of bicubic's taps (swscale was a fifth of a 1080p poster's work).
    int reduced = width < f->width && height < f->height;
    struct SwsContext *sws =
        fz_scaler(video, width, height, deep ? AV_PIX_FMT_RGB48 : AV_PIX_FMT_RGB24, reduced ? SWS_AREA : SWS_BICUBIC);
    if (!sws) return fz_say(why, size, "FFmpeg cannot convert the frame's pixels", 0), 0;
    uint8_t *planes[4] = {out, NULL, NULL, NULL};
    int strides[4] = {(int)stride, 0, 0, 0};
    int rows = AV(2, sws_scale)(sws, (const uint8_t *const *)f->data, f->linesize, 0, f->height, planes, strides);
    AV(2, sws_freeContext)(sws);
    if (rows <= 0) return fz_say(why, size, "FFmpeg cannot scale the frame", rows), 0;
    return 1;
}
