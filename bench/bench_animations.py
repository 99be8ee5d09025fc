"""Issue 50's bench rows: animated thumbnails. A 128 px animated thumbnail of a 100-frame
500x500 GIF (Tools/animations/make-animations.py --big: a moving disc on a gradient, 128
colours, 40 ms a frame) and of the same animation as an animated WebP (gif2webp -lossy -q 80),
each written as an animated WebP, against `vipsthumbnail 'x[n=-1]' --size 128` (WebP out) and,
for the GIF, `gifsicle --resize-fit 128x128` (GIF out: gifsicle writes only GIF). Every output
is checked with Pillow: 100 frames, 128 px on the longest side. bench.py imports these and
passes its helpers in."""

import os
import shutil
import subprocess

PY = "/usr/bin/python3"


def make_inputs(b):
    d = os.path.join(b.DATA, "animations")
    gif = os.path.join(d, "big.gif")
    webp = os.path.join(d, "big.webp")
    if not os.path.exists(webp):
        os.makedirs(d, exist_ok=True)
        script = os.path.join(b.ROOT, "Tools", "animations", "make-animations.py")
        subprocess.run([PY, script, d, "--big"], check=True)
        subprocess.run(["gif2webp", "-quiet", "-lossy", "-q", "80", gif, "-o", webp], check=True)
    return gif, webp


def check_animation(t, frames, side):
    """t.output holds `frames` frames whose longest side is `side` (Pillow reads it)."""
    if not t.ok:
        return
    code = ("import sys; from PIL import Image; im = Image.open(sys.argv[1]); "
            "print(getattr(im, 'n_frames', 1), max(im.size))")
    r = subprocess.run([PY, "-c", code, t.output], capture_output=True, text=True)
    got = r.stdout.split()
    if r.returncode != 0 or got != [str(frames), str(side)]:
        t.ok, t.skip = False, f"want {frames} frames of {side} px, Pillow read {got or r.stderr.strip()[-200:]}"
        return
    t.bytes = os.path.getsize(t.output)
    t.check = f"{frames} frames, {side} px"


def task_animated(b, tid, fz, src, label):
    d = b.fresh_dir(os.path.join(b.OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    task = b.Task(tid, f"Animated thumbnail, {label}",
                  f"{os.path.basename(src)} (100 frames, 500x500) to a 128 px animated thumbnail, every frame kept")
    tools = [
        b.Tool("forcezoom thumb --animated", [fz, "thumb", "--animated", src, "--size", "128", "-o", o("fz.webp"), "--quiet"],
               o("fz.webp"), "fz"),
        b.Tool("vipsthumbnail [n=-1]", ["vipsthumbnail", src + "[n=-1]", "--size", "128", "-o", o("vips.webp")],
               o("vips.webp")),
    ]
    if src.endswith(".gif") and shutil.which("gifsicle"):
        tools.append(b.Tool("gifsicle --resize-fit", ["gifsicle", "--resize-fit", "128x128", src, "-o", o("gifsicle.gif")],
                            o("gifsicle.gif"), note="GIF out (gifsicle writes only GIF)"))
    for t in tools:
        b.run_once(t)
    for t in tools:
        check_animation(t, 100, 128)
    task.tools = tools
    return task


def animation_tasks(b, wanted, fz):
    tasks = []
    if "an" in wanted or "anw" in wanted:
        gif, webp = make_inputs(b)
        if "an" in wanted:
            tasks.append(task_animated(b, "an", fz, gif, "100-frame 500x500 GIF"))
        if "anw" in wanted:
            tasks.append(task_animated(b, "anw", fz, webp, "100-frame 500x500 animated WebP"))
    return tasks
