// fz_video.h: a video's poster frames through FFmpeg (libavformat, libavcodec, libswscale,
// libavutil), opened on first use (fz_video.c says why). Swift holds one fz_video per input
// (Sources/FZVideo/FFmpegVideo.swift); FFmpeg's own pointers never leave fz_video.c.
#ifndef FZ_VIDEO_H
#define FZ_VIDEO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the container and the video stream's parameters say (nothing decoded). */
typedef struct fz_video_facts {
    int width, height;          /* coded size */
    int sar_num, sar_den;       /* sample aspect ratio, 0/1 or 1/1 when square */
    int orientation;            /* the display matrix as an EXIF orientation 1-8; 0: not a right angle */
    double rotation;            /* the matrix's clockwise rotation, degrees (0, 90, 180, 270...) */
    int mirrored;               /* the matrix flips the picture */
    double duration;            /* seconds, < 0 unknown */
    double start;               /* the stream's first timestamp, seconds */
    double frame_rate;          /* frames a second, 0 unknown */
    int64_t frames;             /* frames the container claims, 0 unknown */
    int bit_depth;              /* bits a luma sample */
    int color_trc, color_primaries, color_space, color_range; /* ITU-T H.273 / AVColor* values */
    int audio_streams, video_streams;
    char codec[32];             /* "h264", "hevc", "vp9", "av1"... */
    char container[64];         /* "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", "avi" */
    char pixel_format[32];      /* "yuv420p", "yuv420p10le"... */
} fz_video_facts;

/* The bounds one input works within. */
typedef struct fz_video_limits {
    int64_t max_pixels;         /* the codec refuses frames larger (0: none) */
    int64_t probe_bytes;        /* libavformat reads at most this to find the streams */
    int max_packets;            /* packets read per fz_video_frame_at */
    double seconds;             /* wall time for everything on this input, from fz_video_open */
    int threads;                /* decoding threads */
    int frame_threads;          /* 1: frame and slice threading (a run of frames); 0: slices only (one keyframe) */
    int keyframe_probe;         /* 1: only posters (keyframes) will be asked for, and the coded pixel format
                                   need not be reported: probing decodes keyframes only (fz_video.c) */
} fz_video_limits;

typedef struct fz_video fz_video;

/* Whether FFmpeg's four libraries open with every function fz_video.c calls: 1, or 0 with
   the loader's reason in `why`. Asked before fz_video_open. */
int fz_video_available(char *why, size_t size);
/* The soname of library `slot` (0 avformat, 1 avcodec, 2 swscale, 3 avutil), NULL past the last. */
const char *fz_video_soname(int slot);

/* Opens the container read through `file` (from its current position, seekable or not) and
   fills `facts` from the best video stream. NULL with a reason in `why`: not a container
   FFmpeg reads, no video stream, a codec it lacks, over a limit, out of time. */
fz_video *fz_video_open(FILE *file, const fz_video_limits *limits, fz_video_facts *facts, char *why, size_t size);

/* Decodes the frame at `seconds` (from the stream's start) and keeps it: with `keyframe`,
   the keyframe at or before it (only keyframes decoded); else the first frame whose time is
   at or after it (every frame from the keyframe before decoded), or the last one when the
   stream ends first. 1 with its time in `*shown`, 0 with a reason. */
int fz_video_frame_at(fz_video *video, double seconds, int keyframe, double *shown, char *why, size_t size);
/* Whether the next frames decode without the in-loop deblocking and SAO filters (a poster shown
   at a quarter of the frame's size or less, where their few pixels at block edges average out):
   a fifth to a third less decoding. */
void fz_video_set_fast(fz_video *video, int fast);

/* The mean and variance of the kept frame's luma (0-255) at most 64x64. 0 when no frame. */
int fz_video_measure(fz_video *video, double *mean, double *variance);

/* The kept frame scaled to `width` x `height` (sample aspect ratio applied by the caller's
   choice of size), through the stream's matrix and range: RGB24, or with `deep` RGB48 in
   host order, `stride` bytes a row. 1, or 0 with a reason. */
int fz_video_render(fz_video *video, int width, int height, int deep, uint8_t *out, size_t stride, char *why,
                    size_t size);

void fz_video_close(fz_video *video);

#ifdef __cplusplus
}
#endif

#endif
