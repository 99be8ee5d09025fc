#!/usr/bin/env bash
# make-videos.sh [--bench]: the test videos of the video decoder (issue 50) in .cache/videos,
# made with Debian's ffmpeg (x264, x265, libvpx-vp9, SVT-AV1/aom, mpeg4), small and short (a
# few seconds at 320x240: the set takes about 20 s to make, once: `make videos` caches it).
#   h264.mp4 hevc8.mp4 hevc10.mp4 vp9.webm av1.mkv h264.mkv mpeg4.avi h264.mov h264.3gp
#   pq.mp4 hlg.mp4     10-bit HEVC tagged BT.2020 PQ / HLG
#   black-start.mp4    2 s of black, then 4 s of picture (keyframe every 0.5 s)
#   r90.mp4 r180.mp4 r270.mp4 mirror.mp4 transpose.mp4   display matrices (set-matrix.py)
#   sar.mp4            240x240 stored, 4:3 pixels: shown 320x240
#   full-range.mp4     yuvj420p, full range, BT.709
#   audio.m4a-as.mp4   audio only, in an isom MP4
# --bench: the benchmark's videos in .cache/videos-bench: a 30 s 3840x2160 HEVC phone-like
# video rotated 90 (display matrix), a 30 s 1080p H.264 (each 2 s encoded and looped), 20
# short 720p clips (a few minutes).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ff() { ffmpeg -nostdin -v error -y "$@"; }
matrix() { /usr/bin/python3 Tools/video/set-matrix.py "$@"; }

if [ "${1:-}" = --bench ]; then
  out=.cache/videos-bench
  mkdir -p "$out"
  # 2 s encoded (a keyframe a second, as phones write), then looped to 30 s by copying the
  # packets: a 4K HEVC encode of 30 s takes most of an hour on a busy 2-core machine.
  [ -f "$out/hevc-4k-r90.mp4" ] || {
    ff -f lavfi -i "testsrc2=s=3840x2160:r=30:d=2" -c:v libx265 -preset ultrafast -x265-params log-level=error:keyint=30 \
      -pix_fmt yuv420p -tag:v hvc1 -f mp4 "$out/hevc-4k-2s.tmp"
    ff -stream_loop 14 -i "$out/hevc-4k-2s.tmp" -c copy -tag:v hvc1 -t 30 "$out/hevc-4k-r90.mp4"
    rm -f "$out/hevc-4k-2s.tmp"
    matrix "$out/hevc-4k-r90.mp4" 0 1 -1 0
  }
  [ -f "$out/h264-1080p.mp4" ] || {
    ff -f lavfi -i "testsrc2=s=1920x1080:r=30:d=2" -c:v libx264 -preset veryfast -g 30 -pix_fmt yuv420p \
      -f mp4 "$out/h264-1080p-2s.tmp"
    ff -stream_loop 14 -i "$out/h264-1080p-2s.tmp" -c copy -t 30 "$out/h264-1080p.mp4"
    rm -f "$out/h264-1080p-2s.tmp"
  }
  mkdir -p "$out/batch"
  for i in $(seq -w 1 20); do
    [ -f "$out/batch/clip$i.mp4" ] || ff -f lavfi -i "testsrc2=s=1280x720:r=30:d=3" -vf "hue=h=$((10#$i * 17))" \
      -c:v libx264 -preset veryfast -g 30 -pix_fmt yuv420p "$out/batch/clip$i.mp4"
  done
  exit 0
fi

out=.cache/videos
mkdir -p "$out"
src=(-f lavfi -i "testsrc2=s=320x240:r=30:d=3")
ff "${src[@]}" -c:v libx264 -preset veryfast -g 30 -pix_fmt yuv420p "$out/h264.mp4"
ff "${src[@]}" -c:v libx264 -preset veryfast -g 30 -pix_fmt yuv420p "$out/h264.mov"
ff "${src[@]}" -c:v libx264 -preset veryfast -g 30 -pix_fmt yuv420p "$out/h264.3gp"
ff "${src[@]}" -c:v libx264 -preset veryfast -g 30 -pix_fmt yuv420p "$out/h264.mkv"
ff "${src[@]}" -c:v mpeg4 -q:v 3 -g 30 "$out/mpeg4.avi"
x265=(-c:v libx265 -preset ultrafast -x265-params log-level=error:keyint=30 -tag:v hvc1)
ff "${src[@]}" "${x265[@]}" -pix_fmt yuv420p "$out/hevc8.mp4"
ff "${src[@]}" "${x265[@]}" -pix_fmt yuv420p10le "$out/hevc10.mp4"
hdr=(-color_primaries bt2020 -colorspace bt2020nc)
ff "${src[@]}" "${x265[@]}" -pix_fmt yuv420p10le "${hdr[@]}" -color_trc smpte2084 "$out/pq.mp4"
ff "${src[@]}" "${x265[@]}" -pix_fmt yuv420p10le "${hdr[@]}" -color_trc arib-std-b67 "$out/hlg.mp4"
ff "${src[@]}" -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 500k -g 30 -pix_fmt yuv420p "$out/vp9.webm"
if ffmpeg -hide_banner -encoders 2>/dev/null | grep -q libsvtav1; then
  ff "${src[@]}" -c:v libsvtav1 -preset 12 -g 30 -pix_fmt yuv420p "$out/av1.mkv"
else
  ff "${src[@]}" -c:v libaom-av1 -cpu-used 8 -g 30 -pix_fmt yuv420p "$out/av1.mkv"
fi
ff -f lavfi -i "color=black:s=320x240:r=30:d=2" -f lavfi -i "testsrc2=s=320x240:r=30:d=4" \
  -filter_complex "[0:v][1:v]concat=n=2:v=1[v]" -map "[v]" -c:v libx264 -preset veryfast -g 15 -pix_fmt yuv420p \
  "$out/black-start.mp4"
for name in r90 r180 r270 mirror transpose; do cp "$out/h264.mp4" "$out/$name.mp4"; done
matrix "$out/r90.mp4" 0 1 -1 0
matrix "$out/r180.mp4" -1 0 0 -1
matrix "$out/r270.mp4" 0 -1 1 0
matrix "$out/mirror.mp4" -1 0 0 1
matrix "$out/transpose.mp4" 0 1 1 0
ff -f lavfi -i "testsrc2=s=240x240:r=30:d=2" -vf setsar=4/3 -c:v libx264 -preset veryfast -g 30 -pix_fmt yuv420p \
  "$out/sar.mp4"
ff "${src[@]}" -c:v libx264 -preset veryfast -g 30 -pix_fmt yuvj420p -color_range pc -colorspace bt709 \
  "$out/full-range.mp4"
ff -f lavfi -i "sine=d=1" -c:a aac -f mp4 "$out/audio.m4a-as.mp4"
