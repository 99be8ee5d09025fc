"""Issue 50's video rows: a 256 px poster of a 30 s 3840x2160 HEVC phone-like video whose display
matrix turns it 90 degrees (shown 2160x3840), and of a 30 s 1080p H.264 video, against
`ffmpegthumbnailer -s 256` (seeks to 10%, skips near-blank frames) and against `ffmpeg -ss 3
-frames:v 1` piped to `vipsthumbnail` (what a script does without either); and 20 short 720p
clips, forcezoom's batch (one process, its default jobs) against ffmpegthumbnailer run two at a
time (`xargs -P 2`). The videos are Tools/video/make-videos.sh --bench's (.cache/videos-bench,
`make videos-bench`). Each tool picks its own frame: only the output's size is checked (the long
side 256, upright: 144x256 for the rotated video). bench.py imports these and passes its helpers in."""

import os
import struct

VIDEOS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".cache", "videos-bench")


def png_size(path):
    try:
        with open(path, "rb") as f:
            head = f.read(24)
    except OSError:
        return None
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def check_poster(t, want):
    """The output is a PNG of `want` (w, h), within a pixel (scalers round the short side)."""
    if not t.ok:
        return
    size = png_size(t.output)
    if size is None:
        t.ok, t.skip = False, "no PNG written"
        return
    if abs(size[0] - want[0]) > 1 or abs(size[1] - want[1]) > 1:
        t.ok, t.skip = False, f"output is {size[0]}x{size[1]}, expected {want[0]}x{want[1]} (upright, long side 256)"
        return
    t.bytes = os.path.getsize(t.output)
    t.check = f"{size[0]}x{size[1]}"


def task_poster(b, tid, fz, name, label, want):
    src = os.path.join(VIDEOS, name)
    d = b.fresh_dir(os.path.join(b.OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    task = b.Task(tid, f"Video poster, {label}", f"{name} to a 256 px PNG poster (each tool chooses its frame)")
    stem = os.path.splitext(name)[0]
    pipe = (f"ffmpeg -nostdin -v error -y -ss 3 -i '{src}' -frames:v 1 '{o('frame.png')}' && "
            f"vipsthumbnail '{o('frame.png')}' --size 256 -o '{o('vips.png')}'")
    tools = [
        b.Tool("forcezoom thumb", [fz, "thumb", src, "--out", o("fz"), "--quiet"], o(f"fz/{stem}.thumb.png"), "fz"),
        b.Tool("ffmpegthumbnailer -s 256", ["ffmpegthumbnailer", "-s", "256", "-i", src, "-o", o("ft.png")], o("ft.png")),
        b.Tool("ffmpeg -ss 3 -frames:v 1 + vipsthumbnail", ["sh", "-c", pipe], o("vips.png")),
    ]
    for t in tools:
        b.run_once(t)
    for t in tools:
        check_poster(t, want)
    task.tools = tools
    return task


def check_posters(t, n):
    if not t.ok:
        return
    outs = [f for f in os.listdir(t.output) if f.endswith(".png")]
    bad = [f for f in outs if max(png_size(os.path.join(t.output, f)) or (0, 0)) != 256]
    if len(outs) != n or bad:
        t.ok, t.skip = False, f"{len(outs)} of {n} PNGs written, {len(bad)} not 256 px on the long side"
        return
    t.bytes = sum(os.path.getsize(os.path.join(t.output, f)) for f in outs)
    t.check = f"{len(outs)} PNGs, long side 256"


def task_video_batch(b, tid, fz):
    clips = os.path.join(VIDEOS, "batch")
    names = sorted(f for f in os.listdir(clips) if f.endswith(".mp4"))
    d = b.fresh_dir(os.path.join(b.OUT, f"t{tid}"))
    task = b.Task(tid, f"Video batch, {len(names)} clips",
                  f"{len(names)} clips of 3 s, 1280x720 H.264, to 256 px PNG posters")
    task.images = len(names)
    fzout, ftout = os.path.join(d, "fz"), os.path.join(d, "ft")
    xargs = (f"cd '{clips}' && ls *.mp4 | xargs -P 2 -I{{}} ffmpegthumbnailer -s 256 -i {{}} -o '{ftout}/{{}}.png'")
    tools = [
        b.Tool("forcezoom thumb (one process)", [fz, "thumb", clips, "--out", fzout, "--quiet"], fzout, "fz",
               prepare=["sh", "-c", f"rm -rf '{fzout}'"]),
        b.Tool("ffmpegthumbnailer -s 256, two at a time", ["sh", "-c", xargs], ftout,
               prepare=["sh", "-c", f"rm -rf '{ftout}' && mkdir -p '{ftout}'"]),
    ]
    for t in tools:
        b.run_once(t)
    for t in tools:
        check_posters(t, len(names))
    task.tools = tools
    return task


def video_tasks(b, wanted, fz):
    tasks = []
    if not os.path.isdir(VIDEOS):
        b.log(f"video rows skipped: {VIDEOS} is missing (make videos-bench)")
        return tasks
    if "v4k" in wanted and os.path.exists(os.path.join(VIDEOS, "hevc-4k-r90.mp4")):
        tasks.append(task_poster(b, "v4k", fz, "hevc-4k-r90.mp4", "30 s 4K HEVC rotated 90", (144, 256)))
    if "v1080" in wanted and os.path.exists(os.path.join(VIDEOS, "h264-1080p.mp4")):
        tasks.append(task_poster(b, "v1080", fz, "h264-1080p.mp4", "30 s 1080p H.264", (256, 144)))
    if "vb20" in wanted and os.path.isdir(os.path.join(VIDEOS, "batch")):
        tasks.append(task_video_batch(b, "vb20", fz))
    return tasks
