"""Issue 49's bench rows: where to look. `thumb --size 256x256 --crop-at attention` of the 20 MP
JPEG and of the 12 MP iPhone HEIC against `vipsthumbnail --size 256x256 --smartcrop attention`
(both choose their own window: only the size is checked), and `crop --at region:NAME` against
the same crop given `--at X,Y` (a copy of large.jpg with one MWG region written by exiftool,
centred on the point: the two outputs must be identical). bench.py imports these and passes its
helpers in, so this file needs none of its own."""

import os
import shutil
import subprocess


def task_attention(b, tid, fz, src, label):
    d = b.fresh_dir(os.path.join(b.OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    task = b.Task(tid, f"Attention thumbnail, {label}",
                  f"{os.path.basename(src)} to a 256x256 PNG, the window chosen by attention (each tool its own)")
    stem = os.path.splitext(os.path.basename(src))[0]
    tools = [
        b.Tool("forcezoom thumb --crop-at attention",
               [fz, "thumb", src, "--size", "256x256", "--crop-at", "attention", "--out", o("fz"), "--quiet"],
               o(f"fz/{stem}.thumb.png"), "fz"),
        b.Tool("vipsthumbnail --smartcrop attention",
               ["vipsthumbnail", src, "--size", "256x256", "--smartcrop", "attention", "-o", o("%s.vips.png")],
               o(f"{stem}.vips.png")),
    ]
    for t in tools:
        b.run_once(t)
    for t in tools:
        b.check_image(t, None, (256, 256), "PSNR")
    task.tools = tools
    return task


def tagged_copy(b, src):
    """large.jpg with one MWG region, "Bench", centred on (3008, 1695.5) of its 6016x3391 pixels."""
    dest = os.path.join(b.DATA, "large-region.jpg")
    if not os.path.exists(dest):
        shutil.copyfile(src, dest)
        tag = ("-XMP-mwg-rs:RegionInfo={AppliedToDimensions={W=6016,H=3391,Unit=pixel},RegionList=[{Area={X=0.5,"
               "Y=%.9f,W=0.05,H=0.05,Unit=normalized},Name=Bench,Type=Face}]}" % (1695.5 / 3391))
        subprocess.run(["exiftool", "-q", "-q", "-overwrite_original", tag, dest], check=True)
    return dest


def task_region_crop(b, tid, fz, src):
    d = b.fresh_dir(os.path.join(b.OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    tagged = tagged_copy(b, src)
    task = b.Task(tid, "Crop at a named region, 20 MP JPEG",
                  "large.jpg with an MWG region: 400x400 crop --at region:Bench against --at 3008,1695 (the same square)")
    tools = [
        b.Tool("forcezoom crop --at region:Bench", [fz, "crop", tagged, "--at", "region:Bench", "--size", "400", "-o", o("region.png")],
               o("region.png"), "fz"),
        b.Tool("forcezoom crop --at 3008,1695", [fz, "crop", tagged, "--at", "3008,1695", "--size", "400", "-o", o("point.png")],
               o("point.png"), "variant", note="the same crop given as numbers: the target is region within 5% of it"),
    ]
    for t in tools:
        b.run_once(t)
    for t in tools:
        b.check_image(t, o("point.png"), (400, 400), "PAE")
    task.tools = tools
    return task


def region_tasks(b, wanted, fz, large, phone):
    tasks = []
    if "at20" in wanted:
        tasks.append(task_attention(b, "at20", fz, large, "20 MP JPEG"))
    if "ath12" in wanted and phone:
        tasks.append(task_attention(b, "ath12", fz, phone, "12 MP iPhone HEIC"))
    if "rg" in wanted and shutil.which("exiftool"):
        tasks.append(task_region_crop(b, "rg", fz, large))
    return tasks
