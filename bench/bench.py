#!/usr/bin/env python3
"""make bench: forcezoom against what users would pick instead, measured side by side.

Run by `make bench` (which installs the peers, builds the release binary and fetches the
photos first). python3 standard library only. Every number in the report comes from this
one run on this machine: hyperfine times all the tools of a task in one invocation, and
the report states forcezoom's ratio to the fastest peer and to the decode floor.

Steps:
  1. Derived images in .cache/bench/data/ (deterministic, rebuilt when the recipe changes):
       png12.png          12.0 MP PNG: `vips crop large.jpg png12.png[compression=6,strip]
                          1008 195 4000 3000`, the centre 4000x3000 of the 20 MP photo, 1:1 pixels.
       large-progressive.jpg  `jpegtran -progressive -copy all large.jpg` (lossless, same pixels).
       batch200/          200 files, 1-20 MP: the 14 real photos of .cache/photos/batch/ as
                          shipped plus 186 variants made from them with vips (see make_batch()).
  2. The floor program bench/floor.c, compiled against the system libjpeg/libpng.
  3. Per task: each tool runs once and its output is checked (size, and pixels against the
     reference with ImageMagick `compare`: PAE for crops, PSNR for resized outputs); a tool
     whose output is wrong is reported and not timed. Then hyperfine times all of them in
     one invocation (--shell=none, warm-up, >= 10 runs), peak RSS comes from
     /usr/bin/time -f %M (median of 3 runs), output bytes from the checked file.
  4. The report: printed, and written to BENCHMARKS.md (--out) with date, CPU, versions.

The forcezoom binary must have every subcommand the tasks time (crop, fit, thumb): the
bench stops before any work otherwise.

Usage: bench/bench.py [--fz PATH] [--out FILE] [--runs N] [--batch-runs N] [--tasks 1,2,...]
                      [--quiet-wait SECONDS] [--no-write]
"""

import argparse
import datetime
import hashlib
import json
import math
import os
import re
import shlex
import shutil
import statistics
import struct
import subprocess
import sys
import time


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_regions  # noqa: E402  (issue 49's rows)
import bench_animations  # noqa: E402  (issue 50's rows)
import bench_video  # noqa: E402  (issue 50's rows)
import bench_http  # noqa: E402  (issue 52's rows: crops over HTTP from a local nginx)
import bench_s3  # noqa: E402  (issue 52's rows: a batch from a bucket to a bucket on local moto)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHOTOS = os.path.join(ROOT, ".cache", "photos")
WORK = os.path.join(ROOT, ".cache", "bench")
DATA = os.path.join(WORK, "data")
OUT = os.path.join(WORK, "out")
JSONDIR = os.path.join(WORK, "json")
FLOOR = os.path.join(WORK, "floor")

# The real ImageMagick binaries (a /usr/local/bin/convert may be something else).
IM_CONVERT = "/usr/bin/convert"
IM_MOGRIFY = "/usr/bin/mogrify"
IM_COMPARE = "/usr/bin/compare"
GNU_TIME = "/usr/bin/time"

RECIPE = "bench-data v1"  # bump when the derived images' recipe changes

# Check tolerances.
CROP_MAX_PAE = 4          # a crop must match the reference within this many levels (of 255)
RESIZE_MIN_PSNR = 25.0    # a resized output must be the same picture (a wrong turn or region is ~10 dB)


def log(msg):
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def run(argv, check=True, capture=True, timeout=900, cwd=None):
    r = subprocess.run(argv, stdout=subprocess.PIPE if capture else None,
                       stderr=subprocess.PIPE if capture else None, text=True, timeout=timeout, cwd=cwd)
    if check and r.returncode != 0:
        raise RuntimeError(f"{shlex.join(argv)} exited {r.returncode}: {(r.stderr or '').strip()[:400]}")
    return r


def png_ihdr(path):
    """(width, height, bit depth, colour type) of a PNG, or None."""
    try:
        with open(path, "rb") as f:
            head = f.read(29)
    except OSError:
        return None
    if len(head) < 29 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    w, h, depth, ctype = struct.unpack(">IIBB", head[16:26])
    return w, h, depth, ctype


def vips_dims(path):
    r = run(["vipsheader", "-f", "width", path])
    w = int(r.stdout.strip())
    h = int(run(["vipsheader", "-f", "height", path]).stdout.strip())
    return w, h


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# --------------------------------------------------------------------------------------
# Data


def make_data():
    os.makedirs(DATA, exist_ok=True)
    large = os.path.join(PHOTOS, "large.jpg")
    if not os.path.exists(large):
        sys.exit("bench: .cache/photos/large.jpg is missing; run `make photos`")
    stamp = os.path.join(DATA, ".recipe")
    fresh = os.path.exists(stamp) and open(stamp).read().strip() == RECIPE
    if not fresh:
        shutil.rmtree(DATA)
        os.makedirs(DATA)
    png12 = os.path.join(DATA, "png12.png")
    if not os.path.exists(png12):
        log("png12.png: vips crop large.jpg 1008 195 4000 3000 (centre 4000x3000, 1:1)")
        run(["vips", "crop", large, png12 + "[compression=6,strip]", "1008", "195", "4000", "3000"])
    prog = os.path.join(DATA, "large-progressive.jpg")
    if not os.path.exists(prog):
        log("large-progressive.jpg: jpegtran -progressive -copy all large.jpg")
        run(["jpegtran", "-progressive", "-copy", "all", "-outfile", prog + ".tmp", large])
        os.replace(prog + ".tmp", prog)
    make_batch()
    with open(stamp, "w") as f:
        f.write(RECIPE + "\n")


ASPECTS = [(4, 3), (3, 2), (16, 9), (1, 1), (3, 4), (2, 3), None]  # None: keep the source's


def batch_plan(sources):
    """The 186 variants: deterministic sizes spread over 1-20 MP (golden-ratio sequence),
    capped at 92% of the source's pixels (never upscaled); even k: `vips thumbnail --crop
    centre` (downscale to cover W x H, cut the centre); odd k: `vips crop` of W x H at a
    position from the same kind of sequence (1:1 pixels). Every 19th is PNG (at most 4 MP),
    every 3rd JPEG is progressive; JPEG Q=85, metadata stripped."""
    plan = []
    for k in range(186):
        name, sw, sh = sources[k % len(sources)]
        src_area = sw * sh
        target = 1e6 * (1 + 19 * ((k * 0.6180339887498949) % 1.0))
        png = k % 19 == 0
        if png:
            target = min(target, 4e6)
        area = min(target, 0.92 * src_area)
        aspect = ASPECTS[k % len(ASPECTS)]
        ar = (aspect[0] / aspect[1]) if aspect else sw / sh
        w, h = math.sqrt(area * ar), math.sqrt(area / ar)
        f = min(1.0, sw / w, sh / h)
        w, h = int(w * f), int(h * f)
        if w * h < 1_000_000:  # the aspect cut too much of a small source: keep its own aspect
            ar = sw / sh
            w, h = int(math.sqrt(area * ar)), int(math.sqrt(area / ar))
        op = "thumbnail" if k % 2 == 0 else "crop"
        left = int((sw - w) * ((k * 0.3819660112501051) % 1.0))
        top = int((sh - h) * ((k * 0.7548776662466927) % 1.0))
        ext = "png" if png else "jpg"
        prog = (not png) and k % 3 == 0
        stem = os.path.splitext(name)[0]
        out = f"v{k:03d}-{stem}-{w}x{h}.{ext}"
        plan.append(dict(k=k, src=name, op=op, w=w, h=h, left=left, top=top, ext=ext, progressive=prog, out=out))
    return plan


def make_batch():
    bdir = os.path.join(DATA, "batch200")
    manifest = os.path.join(bdir, "MANIFEST.tsv")
    if os.path.exists(manifest):
        return
    srcdir = os.path.join(PHOTOS, "batch")
    names = sorted(n for n in os.listdir(srcdir) if n.lower().endswith(".jpg"))
    if len(names) != 14:
        log(f"warning: {srcdir} has {len(names)} photos, expected 14")
    os.makedirs(bdir, exist_ok=True)
    sources = []
    rows = []
    for n in names:
        w, h = vips_dims(os.path.join(srcdir, n))
        sources.append((n, w, h))
        shutil.copyfile(os.path.join(srcdir, n), os.path.join(bdir, "orig-" + n))
        rows.append(("orig-" + n, w, h, "copy of .cache/photos/batch/" + n))
    plan = batch_plan(sources)
    log(f"batch200: making {len(plan)} variants of {len(sources)} photos with vips (once)")
    for p in plan:
        src = os.path.join(srcdir, p["src"])
        dst = os.path.join(bdir, p["out"])
        if p["ext"] == "png":
            opts = "[compression=6,strip]"
        else:
            opts = "[Q=85,strip" + (",interlace" if p["progressive"] else "") + "]"
        if p["op"] == "thumbnail":
            argv = ["vips", "thumbnail", src, dst + opts, str(p["w"]), "--height", str(p["h"]), "--crop", "centre"]
            how = f"vips thumbnail {p['src']} {p['w']} --height {p['h']} --crop centre"
        else:
            argv = ["vips", "crop", src, dst + opts, str(p["left"]), str(p["top"]), str(p["w"]), str(p["h"])]
            how = f"vips crop {p['src']} {p['left']} {p['top']} {p['w']} {p['h']}"
        run(argv)
        w, h = vips_dims(dst)
        if (w, h) != (p["w"], p["h"]):
            raise RuntimeError(f"{dst}: expected {p['w']}x{p['h']}, got {w}x{h}")
        rows.append((p["out"], w, h, how + " " + opts))
    with open(manifest + ".tmp", "w") as f:
        f.write("file\twidth\theight\tMP\tbytes\tsha256\thow\n")
        for name, w, h, how in rows:
            path = os.path.join(bdir, name)
            f.write(f"{name}\t{w}\t{h}\t{w * h / 1e6:.2f}\t{os.path.getsize(path)}\t{sha256(path)}\t{how}\n")
    os.replace(manifest + ".tmp", manifest)


def batch_files():
    bdir = os.path.join(DATA, "batch200")
    with open(os.path.join(bdir, "MANIFEST.tsv")) as f:
        lines = f.read().splitlines()[1:]
    files = [os.path.join(bdir, line.split("\t")[0]) for line in lines]
    mps = [float(line.split("\t")[3]) for line in lines]
    return files, mps


def batch_digest():
    with open(os.path.join(DATA, "batch200", "MANIFEST.tsv"), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def build_floor():
    src = os.path.join(ROOT, "bench", "floor.c")
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        sys.exit("bench: no C compiler (cc) for bench/floor.c")
    flags = run(["pkg-config", "--cflags", "--libs", "libjpeg", "libpng", "libisal", "libde265"]).stdout.split()
    # The PNG floor unfilters with forcezoom's own kernels: it measures what the reader adds.
    unfilter = [os.path.join(ROOT, "Sources", "CFZPNG", "fz_png_unfilter.c"), "-I" + os.path.join(ROOT, "Sources", "CFZPNG", "include"),
                "-I" + os.path.join(ROOT, "Sources", "CFZCommon", "include")]
    run([cc, "-O2", "-o", FLOOR, src] + unfilter + flags + ["-lpthread"])
    return cc


# --------------------------------------------------------------------------------------
# forcezoom


def fz_subcommands(fz):
    """The subcommands `forcezoom help` lists (an unknown `help X` prints the same top-level help)."""
    r = run([fz, "help"], check=False)
    if r.returncode != 0:
        return set()
    subs, inside = set(), False
    for line in r.stdout.splitlines():
        if line.strip() == "SUBCOMMANDS:":
            inside = True
            continue
        if inside:
            m = re.match(r"^  ([a-z][a-z0-9-]*)(\s|$)", line)
            if m:
                subs.add(m.group(1))
            elif line and not line.startswith(" "):
                inside = False
    return subs


# --------------------------------------------------------------------------------------
# Checks


def compare_metric(metric, a, b):
    """ImageMagick compare: PAE in levels of 255, or PSNR in dB (inf for identical)."""
    r = run([IM_COMPARE, "-metric", metric, a, b, "null:"], check=False)
    text = (r.stderr or "").strip()
    if r.returncode not in (0, 1):
        raise RuntimeError(f"compare {metric}: {text[:200]}")
    if metric == "PAE":
        m = re.search(r"\(([0-9.eE+-]+)\)", text)
        return float(m.group(1)) * 255 if m else float("nan")
    if text.startswith("inf"):
        return float("inf")
    m = re.match(r"([0-9.eE+-]+)", text)
    return float(m.group(1)) if m else float("nan")


class Tool:
    """One tool's command for one task."""

    def __init__(self, name, argv, output, kind="peer", prepare=None, note=""):
        self.name = name
        self.argv = argv          # list; run without a shell (pipelines are explicit sh -c)
        self.output = output      # the checked output file, or a directory (batch)
        self.kind = kind          # fz, variant (another forcezoom setting: not a peer), peer, floor
        self.prepare = prepare    # argv run before every timed run (hyperfine --prepare)
        self.note = note
        self.check = ""           # what the check found
        self.ok = True
        self.skip = ""            # why not timed
        self.runs = None          # fewer runs than the task's (slow peers), timed in their own invocation
        self.times = []
        self.rss_kb = None
        self.bytes = None
        self.stdout = ""

    @property
    def median(self):
        return statistics.median(self.times) if self.times else None

    def shown_command(self):
        return shlex.join(self.argv).replace(ROOT + "/", "").replace(WORK + "/", "")


def run_once(t):
    if t.prepare:
        run(t.prepare)
    r = run(t.argv, check=False)
    t.stdout = r.stdout
    if r.returncode != 0:
        t.ok = False
        t.skip = f"exit {r.returncode}: {(r.stderr or '').strip().splitlines()[-1:] or ''}"
        return False
    return True


def check_image(t, ref, want_size, metric, verbose=True):
    """Checks t.output: PNG of want_size, pixels against ref (None: only the size)."""
    if not t.ok:
        return
    ihdr = png_ihdr(t.output)
    if ihdr is None:
        t.ok, t.skip = False, "no PNG written"
        return
    if (ihdr[0], ihdr[1]) != want_size:
        t.ok, t.skip = False, f"output is {ihdr[0]}x{ihdr[1]}, expected {want_size[0]}x{want_size[1]}"
        return
    t.bytes = os.path.getsize(t.output)
    if ref is None or os.path.abspath(ref) == os.path.abspath(t.output):
        t.check = f"{ihdr[0]}x{ihdr[1]} (reference)"
        return
    v = compare_metric(metric, ref, t.output)
    if metric == "PAE":
        t.check = f"{ihdr[0]}x{ihdr[1]}, PAE {v:.0f}"
        if not (v <= CROP_MAX_PAE):
            t.ok, t.skip = False, f"pixels differ from the reference (PAE {v:.0f} > {CROP_MAX_PAE} levels)"
    else:
        t.check = f"{ihdr[0]}x{ihdr[1]}, PSNR {'inf' if math.isinf(v) else f'{v:.1f}'} dB"
        if not (v >= RESIZE_MIN_PSNR):
            t.ok, t.skip = False, f"not the same picture as the reference (PSNR {v:.1f} dB < {RESIZE_MIN_PSNR})"


def check_floor(t, want):
    if not t.ok:
        return
    words = t.stdout.split()
    t.check = "decoded " + " ".join(words[:-1])  # the last word is the samples' checksum
    if want and (not words or words[0] != want):
        t.ok, t.skip = False, f"floor decoded {t.stdout.strip()}, expected {want}"


def check_batch(t, n_inputs, suffix):
    if not t.ok:
        return
    outs = sorted(f for f in os.listdir(t.output) if f.endswith(suffix))
    bad = []
    total = 0
    for f in outs:
        p = os.path.join(t.output, f)
        ihdr = png_ihdr(p)
        if ihdr is None or max(ihdr[0], ihdr[1]) != 256:
            bad.append(f)
        total += os.path.getsize(p)
    if len(outs) != n_inputs or bad:
        t.ok = False
        t.skip = f"{len(outs)} of {n_inputs} PNGs written, {len(bad)} not 256 px on the long side"
        return
    t.bytes = total
    t.check = f"{len(outs)} PNGs, long side 256"


# --------------------------------------------------------------------------------------
# Timing


def hyperfine(task_id, tools, runs, warmup):
    """Times the checked tools in one hyperfine invocation (tools with their own, smaller
    .runs in a second one right after, without warm-up)."""
    timed = [t for t in tools if t.ok and not t.skip]
    main = [t for t in timed if not t.runs]
    slow = [t for t in timed if t.runs]
    if main:
        hyperfine_group(f"task{task_id}", main, runs, warmup)
    if slow:
        hyperfine_group(f"task{task_id}-slow", slow, min(t.runs for t in slow), 0)


def hyperfine_group(label, timed, runs, warmup):
    os.makedirs(JSONDIR, exist_ok=True)
    export = os.path.join(JSONDIR, f"{label}.json")
    argv = ["hyperfine", "--shell=none", "--warmup", str(warmup), "--runs", str(runs),
            "--export-json", export, "--style", "basic"]
    if any(t.prepare for t in timed):
        for t in timed:
            argv += ["--prepare", shlex.join(t.prepare or ["true"])]
    for t in timed:
        argv += ["--command-name", t.name]
    argv += [shlex.join(t.argv) for t in timed]
    log(f"{label}: hyperfine {len(timed)} commands x ({warmup} warm-up + {runs} runs)")
    r = run(argv, check=False, capture=True, timeout=3600)
    if r.returncode != 0:
        for t in timed:
            t.skip = "hyperfine failed: " + (r.stderr or "").strip()[-200:]
        return
    with open(export) as f:
        results = json.load(f)["results"]
    for t, res in zip(timed, results):
        t.times = [x * 1000 for x in res["times"]]


def peak_rss(tools, repeats):
    for t in tools:
        if not t.ok or t.skip:
            continue
        vals = []
        for _ in range(repeats):
            if t.prepare:
                run(t.prepare)
            tmp = os.path.join(WORK, "time.out")
            r = run([GNU_TIME, "-f", "%M", "-o", tmp] + t.argv, check=False)
            if r.returncode == 0:
                with open(tmp) as f:
                    vals.append(int(f.read().strip().splitlines()[-1]))
        if vals:
            t.rss_kb = statistics.median(vals)


# --------------------------------------------------------------------------------------
# Tasks


class Task:
    def __init__(self, tid, title, what):
        self.id = tid
        self.title = title
        self.what = what
        self.tools = []
        self.notes = []
        self.unit = "ms"          # or "img/s" extra column for batch
        self.images = None        # batch size
        self.busy = 0.0           # the CPUs' busy share, sampled while idle just before timing
        self.others = None        # the share other processes used while the task was timed


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def task_crop(tid, fz, subs, src, point, label, floor_jpeg, title):
    """400x400 around `point` of `src`, to PNG."""
    x, y = point[0] - 200, point[1] - 200
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    task = Task(tid, title, f"400x400 crop around ({point[0]},{point[1]}) of {label}, to PNG")
    o = lambda n: os.path.join(d, n)
    tools = []
    tools.append(Tool("forcezoom crop", [fz, "crop", src, "--at", f"{point[0]},{point[1]}", "--size", "400", "-o", o("fz.png")], o("fz.png"), "fz"))
    tools += [
        Tool("vips crop", ["vips", "crop", src, o("vips.png"), str(x), str(y), "400", "400"], o("vips.png")),
        Tool("vips smartcrop --interesting centre", ["vips", "smartcrop", src, o("vips-smart.png"), "400", "400", "--interesting", "centre"], o("vips-smart.png"),
             note="centre is the only --interesting mode that keeps the centre region; attention/entropy pick another region"),
        Tool("ImageMagick convert -crop", [IM_CONVERT, src, "-crop", f"400x400+{x}+{y}", "+repage", o("im.png")], o("im.png")),
        Tool("gm convert -crop", ["gm", "convert", src, "-crop", f"400x400+{x}+{y}", "+repage", o("gm.png")], o("gm.png")),
    ]
    if floor_jpeg is None:
        pass
    elif floor_jpeg:
        tools += [
            Tool("floor: crop decode (C)", [FLOOR, "crop", str(x), str(y), "400", "400", src], None, "floor"),
            Tool("floor: full decode (C)", [FLOOR, "full", src], None, "floor"),
            Tool("floor: 1/8 decode (C)", [FLOOR, "scale", "8", src], None, "floor"),
        ]
    else:
        tools.append(Tool("floor: PNG rows 0..last (C)", [FLOOR, "pngrows", str(y), "400", src], None, "floor"))
    for t in tools:
        run_once(t)
    ref = tools[0].output if tools[0].kind == "fz" and tools[0].ok else o("vips.png")
    for t in tools:
        if t.kind == "floor":
            check_floor(t, None)
        else:
            check_image(t, ref, (400, 400), "PAE")
    task.tools = tools
    return task


def task_fit(tid, fz, subs, src):
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    task = Task(tid, "Fullscreen fit, 20 MP JPEG",
                "large.jpg fit into 1170x2532 held landscape-left (content turned 90 degrees clockwise), on black, to PNG")
    tools = []
    tools.append(Tool("forcezoom fit", [fz, "fit", src, "--screen", "1170x2532", "--orientation", "landscape-left",
                                        "--background", "black", "-o", o("fz.png")], o("fz.png"), "fz"))
    tools.append(Tool("forcezoom fit, one thread (FORCEZOOM_THREADS=1)",
                      ["env", "FORCEZOOM_THREADS=1", fz, "fit", src, "--screen", "1170x2532", "--orientation", "landscape-left",
                       "--background", "black", "-o", o("fz1.png")], o("fz1.png"), "variant",
                      note="the same command with the parallel PNG encoder off: its ratio is what the second core gives"))
    v1, v2 = o("vips-t.v"), o("vips-r.v")
    vips_chain = (f"vips thumbnail {shlex.quote(src)} {v1} 2532 --height 1170 && vips rot {v1} {v2} d90 && "
                  f"vips gravity {v2} {o('vips.png')} centre 1170 2532 --extend black")
    tools += [
        Tool("vips thumbnail + rot + gravity", ["sh", "-c", vips_chain], o("vips.png"),
             note="three vips processes with .v intermediates; thumbnail shrinks on load"),
        Tool("ImageMagick -rotate 90 -resize -extent",
             [IM_CONVERT, src, "-rotate", "90", "-resize", "1170x2532", "-background", "black", "-gravity", "center",
              "-extent", "1170x2532", o("im.png")], o("im.png")),
        Tool("ImageMagick + -define jpeg:size",
             [IM_CONVERT, "-define", "jpeg:size=2532x1170", src, "-rotate", "90", "-resize", "1170x2532", "-background", "black",
              "-gravity", "center", "-extent", "1170x2532", o("im-size.png")], o("im-size.png"),
             note="jpeg:size=2532x1170 (the landscape content box) lets libjpeg decode at 1/2 scale, 3008x1696"),
        Tool("gm convert -size -rotate -resize -extent",
             ["gm", "convert", "-size", "2532x1170", src, "-rotate", "90", "-resize", "1170x2532", "-background", "black",
              "-gravity", "center", "-extent", "1170x2532", o("gm.png")], o("gm.png")),
        Tool("floor: 1/2 decode (C)", [FLOOR, "scale", "2", src], None, "floor",
             note="the smallest DCT scale still at least 2076x1170 (the fitted size)"),
        Tool("floor: fit, one thread (C)", [FLOOR, "fit", "1170", "2532", src, o("floor.png")], o("floor.png"), "floor",
             note="bench/floor.c `fit`: 3/8 DCT decode, one bilinear pass straight into the turned canvas, PNG zlib 1 Sub RLE "
                  "(forcezoom's default encode settings), one thread: the single-thread floor of the whole job"),
    ]
    for t in tools:
        run_once(t)
    ref = tools[0].output if tools[0].kind == "fz" and tools[0].ok else o("vips.png")
    for t in tools:
        if t.kind == "floor" and t.output:
            check_image(t, ref, (1170, 2532), "PSNR")
        elif t.kind == "floor":
            check_floor(t, None)
        else:
            check_image(t, ref, (1170, 2532), "PSNR")
    task.tools = tools
    return task


def task_encode(tid, fz, src):
    """A large PNG encode: forcezoom crop of a whole 1721x1721 PNG (2.96 MP, the pixel count of
    1170x2532) stored without compression, so its decode is little more than a copy, with the
    parallel encoder (default threads) and without (FORCEZOOM_THREADS=1). The C floor reads the
    same rows with libpng: each row's time less the floor's is its encode."""
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    stored = os.path.join(DATA, "encode-1721-stored.png")
    if not os.path.exists(stored):
        run(["vips", "crop", src, stored + "[compression=0,strip]", "2148", "835", "1721", "1721"])
    task = Task(tid, "Large PNG encode, parallel vs serial",
                "forcezoom crop of the whole of encode-1721-stored.png (the centre 1721x1721 of large.jpg, 2.96 MP as 1170x2532, "
                "stored uncompressed), default compression")
    args = ["crop", stored, "--at", "50%,50%", "--size", "1721"]
    tools = [
        Tool("forcezoom crop (parallel PNG encode)", [fz] + args + ["-o", o("fz.png")], o("fz.png"), "fz"),
        Tool("forcezoom crop, FORCEZOOM_THREADS=1 (serial encode)", ["env", "FORCEZOOM_THREADS=1", fz] + args + ["-o", o("fz1.png")],
             o("fz1.png"), "variant", note="target: the parallel row at least 1.7x faster in the encode; bytes within 2%"),
        Tool("floor: PNG rows 0..last (C)", [FLOOR, "pngrows", "0", "1721", stored], None, "floor",
             note="the decode both rows share: the encode's time is a row's time less this"),
    ]
    for t in tools:
        run_once(t)
    for t in tools:
        if t.kind == "floor":
            check_floor(t, None)
        else:
            check_image(t, o("fz1.png"), (1721, 1721), "PAE")
    task.tools = tools
    return task


def task_frame(tid, fz, subs, src):
    """frame: the aspect-fit view of large.jpg in a 2532x1170 (landscape) view with the preview
    box of a 400 px peek at the centre; peers make the same view and draw a rectangle."""
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    task = Task(tid, "Frame (view with preview box), 20 MP JPEG",
                "large.jpg aspect-fit into a 2532x1170 view on black, with the box of a 400 px peek at the centre, to PNG")
    r = run([fz, "frame", src, "--view", "2532x1170", "--at", "50%,50%", "--size", "400", "--json", "-o", o("probe.png")], check=False)
    box = json.loads(r.stdout)["box"] if r.returncode == 0 else dict(x=1197, y=516, width=138, height=138)
    bx, by, bw, bh = (int(round(box[k])) for k in ("x", "y", "width", "height"))
    tools = [Tool("forcezoom frame", [fz, "frame", src, "--view", "2532x1170", "--at", "50%,50%", "--size", "400", "-o", o("fz.png")],
                  o("fz.png"), "fz")]
    t, g = o("vips-t.v"), o("vips-g.v")
    chain = (f"vips thumbnail {shlex.quote(src)} {t} 2532 --height 1170 && vips gravity {t} {g} centre 2532 1170 --extend black && "
             f"vips draw_rect {g} 255 {bx} {by} {bw} {bh} && vips copy {g} {o('vips.png')}")
    tools += [
        Tool("vips thumbnail + gravity + draw_rect", ["sh", "-c", chain], o("vips.png"),
             note="four vips processes with .v intermediates; a 1-pixel white rectangle (forcezoom draws a 4-point stroke with a shadow)"),
        Tool("ImageMagick -resize -extent -draw rectangle",
             [IM_CONVERT, "-define", "jpeg:size=5064x2340", src, "-resize", "2532x1170", "-background", "black", "-gravity", "center",
              "-extent", "2532x1170", "-fill", "none", "-stroke", "white", "-strokewidth", "4",
              "-draw", f"rectangle {bx},{by} {bx + bw},{by + bh}", o("im.png")], o("im.png"),
             note="jpeg:size lets libjpeg decode at 1/2 scale"),
    ]
    for tl in tools:
        run_once(tl)
    ref = tools[0].output if tools[0].ok else o("vips.png")
    for tl in tools:
        check_image(tl, ref, (2532, 1170), "PSNR")
    task.tools = tools
    return task


def check_image_near(t, ref, metric):
    """Like check_image for outputs whose size may differ by a pixel or two (a rotation's
    bounding box rounds differently in each tool): compares the centre 4000x3000."""
    if not t.ok:
        return
    a, b = png_ihdr(t.output), png_ihdr(ref)
    if a is None or b is None:
        t.ok, t.skip = False, "no PNG written"
        return
    if abs(a[0] - b[0]) > 2 or abs(a[1] - b[1]) > 2:
        t.ok, t.skip = False, f"output is {a[0]}x{a[1]}, expected about {b[0]}x{b[1]}"
        return
    t.bytes = os.path.getsize(t.output)
    if os.path.abspath(ref) == os.path.abspath(t.output):
        t.check = f"{a[0]}x{a[1]} (reference)"
        return
    cut = os.path.join(WORK, "cut-a.png"), os.path.join(WORK, "cut-b.png")
    for path, out in ((t.output, cut[0]), (ref, cut[1])):
        run([IM_CONVERT, path, "-alpha", "off", "-gravity", "center", "-crop", "4000x3000+0+0", "+repage", out])
    v = compare_metric(metric, cut[0], cut[1])
    t.check = f"{a[0]}x{a[1]}, centre 4000x3000 PSNR {'inf' if math.isinf(v) else f'{v:.1f}'} dB"
    if not (v >= RESIZE_MIN_PSNR):
        t.ok, t.skip = False, f"not the same picture as the reference (PSNR {v:.1f} dB < {RESIZE_MIN_PSNR})"


def task_transform(tid, fz, subs, src, slow_runs):
    """transform --rotate 15 of the whole 20 MP photo onto its bounding box (about 6690x4834)."""
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    task = Task(tid, "Rotate by 15 degrees, 20 MP JPEG",
                "large.jpg rotated 15 degrees clockwise onto its bounding box (about 6690x4834, 32 MP) on black, bilinear, to PNG")
    tools = [
        Tool("forcezoom transform --rotate 15", [fz, "transform", src, "--rotate", "15", "--background", "black", "-o", o("fz.png")],
             o("fz.png"), "fz", note="bilinear is forcezoom's default for transform, as for vips similarity"),
        Tool("forcezoom transform, one thread (FORCEZOOM_THREADS=1)",
             ["env", "FORCEZOOM_THREADS=1", fz, "transform", src, "--rotate", "15", "--background", "black", "-o", o("fz1.png")],
             o("fz1.png"), "variant"),
        Tool("vips similarity --angle 15", ["vips", "similarity", src, o("vips.png"), "--angle", "15"], o("vips.png"),
             note="bilinear (vips's default interpolator), black outside"),
        Tool("ImageMagick +distort SRT 15", [IM_CONVERT, src, "-virtual-pixel", "black", "+distort", "SRT", "15", o("im.png")],
             o("im.png"), note=f"+distort fits the bounding box; {slow_runs} runs (one takes about 40 s)"),
    ]
    tools[-1].runs = slow_runs
    for tl in tools:
        run_once(tl)
    ref = tools[0].output if tools[0].ok else o("vips.png")
    for tl in tools:
        check_image_near(tl, ref, "PSNR")
    task.tools = tools
    return task


GRIDS = os.path.join(ROOT, ".cache", "heicgrid")


def task_grid_crop(tid, fz, subs, name, label):
    """400x400 crop at the centre of a generated HEIC grid (Tools/heicgrid, `make heicgrids-bench`)
    against `vips crop` (libvips decodes the whole grid through libheif); forcezoom decodes the
    2-4 tiles the square touches. ImageMagick and gm are left out: they decode the whole grid
    too, at several GB for the 200 MP file."""
    src = os.path.join(GRIDS, name)
    w, h = vips_dims(src)
    x, y = w // 2 - 200, h // 2 - 200
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    task = Task(tid, f"Crop of a {label} HEIC grid", f"400x400 crop at the centre of {name} ({w}x{h}, 512x512 HEVC tiles), to PNG")
    tools = [
        Tool("forcezoom crop", [fz, "crop", src, "--at", f"{w // 2},{h // 2}", "--size", "400", "-o", o("fz.png")], o("fz.png"), "fz"),
        Tool("vips crop", ["vips", "crop", src, o("vips.png"), str(x), str(y), "400", "400"], o("vips.png")),
    ]
    if w * h > 40e6:  # a whole decode of the grid takes 10-40 s a run
        tools[1].runs = 3
        tools[1].note = "3 runs, timed right after forcezoom's (it decodes the whole grid)"
    for t in tools:
        run_once(t)
    for t in tools:
        check_image(t, o("vips.png"), (400, 400), "PAE")
    task.tools = tools
    return task


def task_grid_thumb(tid, fz, subs, name, label):
    """256 px thumbnail of a generated HEIC grid with no embedded thumbnail: forcezoom streams the
    grid a row of tiles at a time, the tiles of a row decoded side by side."""
    src = os.path.join(GRIDS, name)
    w, h = vips_dims(src)
    stem = os.path.splitext(name)[0]
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    want = (256, round(256 * h / w)) if w >= h else (round(256 * w / h), 256)
    task = Task(tid, f"256 px thumbnail, {label} HEIC grid",
                f"{name} ({w}x{h}, 512x512 HEVC tiles, no embedded thumbnail) to a 256 px PNG, default limits")
    tools = [
        Tool("forcezoom thumb --no-embedded-thumbnail",
             [fz, "thumb", src, "--size", "256", "--no-embedded-thumbnail", "--out", o("fz"), "--quiet"],
             o(f"fz/{stem}.thumb.png"), "fz"),
        Tool("vipsthumbnail", ["vipsthumbnail", src, "-s", "256", "-o", o("%s.vips.png")], o(f"{stem}.vips.png")),
    ]
    if w * h > 40e6:  # both decode every tile: 10-40 s a run
        for t in tools:
            t.runs = 3
    for t in tools:
        run_once(t)
    for t in tools:
        check_image(t, tools[0].output, want, "PSNR")
    task.tools = tools
    return task


def task_grid_fit(tid, fz, subs, name, label):
    """A grid HEIC fit to a phone screen held landscape, as task 3 does with the 20 MP JPEG."""
    src = os.path.join(GRIDS, name)
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    task = Task(tid, f"Fullscreen fit, {label} HEIC grid",
                f"{name} fit into 1170x2532 held landscape-left (content turned 90 degrees clockwise), on black, to PNG")
    v1, v2 = o("vips-t.v"), o("vips-r.v")
    vips_chain = (f"vips thumbnail {shlex.quote(src)} {v1} 2532 --height 1170 && vips rot {v1} {v2} d90 && "
                  f"vips gravity {v2} {o('vips.png')} centre 1170 2532 --extend black")
    tools = [
        Tool("forcezoom fit", [fz, "fit", src, "--screen", "1170x2532", "--orientation", "landscape-left",
                               "--background", "black", "-o", o("fz.png")], o("fz.png"), "fz"),
        Tool("vips thumbnail + rot + gravity", ["sh", "-c", vips_chain], o("vips.png"),
             note="three vips processes with .v intermediates"),
    ]
    for t in tools:
        run_once(t)
    for t in tools:
        check_image(t, tools[0].output, (1170, 2532), "PSNR")
    task.tools = tools
    return task


def make_tiffs():
    """Issue 35: a 200 MP tiled TIFF (png12.png replicated 4x5 and cut to 16000x12500, 256x256
    deflate tiles) and a pyramidal TIFF of png12.png (vips tiffsave --tile --pyramid), once."""
    tdir = os.path.join(DATA, "tiff")
    stamp = os.path.join(tdir, ".done")
    if os.path.exists(stamp):
        return tdir
    os.makedirs(tdir, exist_ok=True)
    png12 = os.path.join(DATA, "png12.png")
    rep = os.path.join(tdir, "rep.v")
    log("tiff: vips replicate png12.png 4x5, crop to 16000x12500, tiffsave --tile deflate; tiffsave --pyramid of png12.png (once)")
    run(["vips", "replicate", png12, rep, "4", "5"], timeout=1800)
    run(["vips", "crop", rep, os.path.join(tdir, "tiled200.tif[tile,tile-width=256,tile-height=256,compression=deflate]"),
         "0", "0", "16000", "12500"], timeout=1800)
    os.remove(rep)
    run(["vips", "tiffsave", png12, os.path.join(tdir, "pyramid12.tif"), "--tile", "--pyramid", "--compression", "deflate"],
        timeout=1800)
    open(stamp, "w").write("vips replicate + crop + tiffsave tile; tiffsave --pyramid\n")
    return tdir


def task_tiff_crop(tid, fz, subs, tdir):
    """400x400 crop at the centre of the 200 MP tiled TIFF against `vips crop` (libvips reads
    the TIFF's tiles on demand too); forcezoom decodes the 2-3 tiles across it touches."""
    src = os.path.join(tdir, "tiled200.tif")
    w, h = vips_dims(src)
    x, y = w // 2 - 200, h // 2 - 200
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    task = Task(tid, "Crop of a 200 MP tiled TIFF",
                f"400x400 crop at the centre of tiled200.tif ({w}x{h}, 256x256 deflate tiles), to PNG")
    tools = [
        Tool("forcezoom crop", [fz, "crop", src, "--at", f"{w // 2},{h // 2}", "--size", "400", "-o", o("fz.png")], o("fz.png"), "fz"),
        Tool("vips crop", ["vips", "crop", src, o("vips.png"), str(x), str(y), "400", "400"], o("vips.png")),
    ]
    for t in tools:
        run_once(t)
    for t in tools:
        check_image(t, o("vips.png"), (400, 400), "PAE")
    task.tools = tools
    return task


def task_tiff_thumb(tid, fz, subs, tdir):
    """256 px thumbnail of a pyramidal TIFF: both tools pick a reduced level (forcezoom the
    smallest at least twice the target, as for JPEG's DCT scaling)."""
    src = os.path.join(tdir, "pyramid12.tif")
    w, h = vips_dims(src)
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    want = (256, round(256 * h / w)) if w >= h else (round(256 * w / h), 256)
    task = Task(tid, "256 px thumbnail, pyramidal TIFF",
                f"pyramid12.tif ({w}x{h}, 128x128 deflate tiles, vips pyramid) to a 256 px PNG")
    tools = [
        Tool("forcezoom thumb", [fz, "thumb", src, "--size", "256", "--out", o("fz"), "--quiet"], o("fz/pyramid12.thumb.png"), "fz"),
        Tool("vipsthumbnail", ["vipsthumbnail", src, "-s", "256", "-o", o("%s.vips.png")], o("pyramid12.vips.png")),
    ]
    for t in tools:
        run_once(t)
    for t in tools:
        check_image(t, tools[0].output, want, "PSNR")
    task.tools = tools
    return task


def make_formats():
    """12 MP HEIC (with and without a 320 px embedded thumbnail, as phones write them) and WebP
    made from png12.png, and a mixed batch of JPEG, HEIC and WebP from batch200 (once)."""
    fdir = os.path.join(DATA, "formats")
    stamp = os.path.join(fdir, ".done")
    if os.path.exists(stamp):
        return fdir
    os.makedirs(fdir, exist_ok=True)
    png12 = os.path.join(DATA, "png12.png")
    log("formats: heif-enc -q 50 (with -t 320 and without) and cwebp -q 80 of png12.png; a 30-file mixed batch (once)")
    run(["heif-enc", "-q", "50", "-t", "320", png12, "-o", os.path.join(fdir, "heic12.heic")], timeout=1800)
    run(["heif-enc", "-q", "50", png12, "-o", os.path.join(fdir, "heic12-nothumb.heic")], timeout=1800)
    run(["cwebp", "-quiet", "-q", "80", png12, "-o", os.path.join(fdir, "webp12.webp")])
    mixed = os.path.join(fdir, "mixed")
    os.makedirs(mixed, exist_ok=True)
    files, mps = batch_files()
    picks = [f for f, mp in zip(files, mps) if f.endswith(".jpg") and 2 <= mp <= 13][:30]
    for i, f in enumerate(picks):
        stem = os.path.splitext(os.path.basename(f))[0]
        if i % 3 == 0:
            shutil.copyfile(f, os.path.join(mixed, stem + ".jpg"))
        elif i % 3 == 1:
            run(["heif-enc", "-q", "50", "-t", "320", f, "-o", os.path.join(mixed, stem + ".heic")], timeout=1800)
        else:
            run(["cwebp", "-quiet", "-q", "80", f, "-o", os.path.join(mixed, stem + ".webp")])
    open(stamp, "w").write("heif-enc -q 50 [-t 320]; cwebp -q 80\n")
    return fdir


def make_jxl():
    """12 MP JPEG XL made from png12.png by cjxl -q 80 (VarDCT, libjxl-tools), once."""
    fdir = os.path.join(DATA, "formats")
    path = os.path.join(fdir, "jxl12.jxl")
    if not os.path.exists(path):
        os.makedirs(fdir, exist_ok=True)
        log("formats: cjxl -q 80 of png12.png (once)")
        run(["cjxl", os.path.join(DATA, "png12.png"), path + ".tmp", "-q", "80"], timeout=1800)
        os.replace(path + ".tmp", path)
    return path


def task_jxl(tid, fz, subs, src, thumb):
    """A 400 px crop or a 256 px thumbnail of the 12 MP JPEG XL beside djxl's decode of the
    same file on the same cores (libjxl decodes a frame whole: djxl's time is the floor a
    reader of libjxl 0.7 can reach), and vips."""
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    what = "256 px thumbnail" if thumb else "400x400 crop around (2000,1500)"
    task = Task(tid, f"{'Thumbnail' if thumb else 'Crop'} of a 12 MP JPEG XL",
                f"{what} of jxl12.jxl (4000x3000, cjxl -q 80 of png12.png), to PNG; djxl decodes the whole file to PPM")
    if thumb:
        tools = [
            Tool("forcezoom thumb", [fz, "thumb", src, "--size", "256", "--out", o("fz"), "--quiet"], o("fz/jxl12.thumb.png"), "fz"),
            Tool("vipsthumbnail", ["vipsthumbnail", src, "-s", "256", "-o", o("%s.vips.png")], o("jxl12.vips.png")),
        ]
    else:
        tools = [
            Tool("forcezoom crop", [fz, "crop", src, "--at", "2000,1500", "--size", "400", "-o", o("fz.png")], o("fz.png"), "fz"),
            Tool("vips crop", ["vips", "crop", src, o("vips.png"), "1800", "1300", "400", "400"], o("vips.png")),
        ]
    tools.append(Tool("djxl decode (to PPM)", ["djxl", src, o("djxl.ppm")], None, "floor"))
    for t in tools:
        run_once(t)
    for t in tools:
        if t.kind != "floor":
            check_image(t, tools[0].output, (256, 192) if thumb else (400, 400), "PSNR" if thumb else "PAE")
    task.tools = tools
    return task


def task_heic_thumb(tid, fz, subs, fdir):
    """256 px thumbnail of the 12 MP HEIC: with its 320 px embedded thumbnail (both tools may use
    it) and from a copy without one (both decode the full image)."""
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    task = Task(tid, "256 px thumbnail, 12 MP HEIC",
                "heic12.heic (4000x3000 HEVC, 320 px embedded thumbnail) and heic12-nothumb.heic (none) to 256x192 PNG")
    th, nt = os.path.join(fdir, "heic12.heic"), os.path.join(fdir, "heic12-nothumb.heic")
    tools = [
        Tool("forcezoom thumb (embedded thumbnail)", [fz, "thumb", th, "--size", "256", "--out", o("fz"), "--quiet"],
             o("fz/heic12.thumb.png"), "fz"),
        Tool("vipsthumbnail (embedded thumbnail)", ["vipsthumbnail", th, "-s", "256", "-o", o("%s.vips.png")], o("heic12.vips.png")),
        Tool("forcezoom thumb, no embedded thumbnail", [fz, "thumb", nt, "--size", "256", "--out", o("fzn"), "--quiet"],
             o("fzn/heic12-nothumb.thumb.png"), "variant"),
        Tool("vipsthumbnail, no embedded thumbnail", ["vipsthumbnail", nt, "-s", "256", "-o", o("%s.vips.png")],
             o("heic12-nothumb.vips.png"), "peer-full"),
    ]
    for tl in tools:
        run_once(tl)
    for tl in tools:
        check_image(tl, o("fzn/heic12-nothumb.thumb.png"), (256, 192), "PSNR")
    task.tools = tools
    return task


# --------------------------------------------------------------------------------------
# Issue 38: the PNG floor (ISA-L inflate, our unfiltering), HEIC tiles straight into
# libde265, and a ladder of thumbnail sizes from one decode.

PHONE_HEIC = [os.path.join(ROOT, "..", "shared", "formats", "hdr", "iphone13pro_pug_hdrgainmap.heic"),
              os.path.join(ROOT, "..", "shared", "heic-phone", "spatial_photo.heic")]


def make_png9():
    """A 9 MP photo PNG as most encoders write photos: the centre 3456x2592 of large.jpg saved by
    Pillow (zlib 6, its adaptive per-row filters: Paeth on ~98% of the rows of a photo)."""
    dest = os.path.join(DATA, "png9.png")
    if not os.path.exists(dest):
        log("png9.png: Pillow, centre 3456x2592 of large.jpg, default (adaptive) filters")
        code = ("import sys; from PIL import Image; im = Image.open(sys.argv[1]); w, h = im.size; "
                "x, y = (w - 3456) // 2, (h - 2592) // 2; "
                "im.crop((x, y, x + 3456, y + 2592)).convert('RGB').save(sys.argv[2] + '.tmp.png')")
        run(["/usr/bin/python3", "-c", code, os.path.join(PHOTOS, "large.jpg"), dest])
        os.replace(dest + ".tmp.png", dest)
    return dest


def task_png9_crop(tid, fz, subs, src):
    """400 px crop at the centre of the 9 MP photo PNG: forcezoom against vips crop, the libpng
    floor (rows 0..last, what the crop read before issue 38) and the ISA-L floor."""
    task = task_crop(tid, fz, subs, src, (1728, 1296), "png9.png (3456x2592 RGB photo PNG, Paeth rows)", False,
                     "Crop of a 9 MP photo PNG")
    task.tools.append(Tool("floor: ISA-L inflate + unfilter, rows 0..last (C)", [FLOOR, "pngisal", "1096", "400", src], None,
                           "floor"))
    run_once(task.tools[-1])
    check_floor(task.tools[-1], None)
    return task


def task_png9_thumb(tid, fz, subs, src):
    """The whole 9 MP PNG decoded: a 256 px thumbnail against vipsthumbnail, and the ISA-L floor."""
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    task = Task(tid, "256 px thumbnail, 9 MP photo PNG", "png9.png (3456x2592) to a 256x192 PNG: every row decoded")
    tools = [
        Tool("forcezoom thumb", [fz, "thumb", src, "--size", "256", "--out", o("fz"), "--quiet"], o("fz/png9.thumb.png"), "fz"),
        Tool("vipsthumbnail", ["vipsthumbnail", src, "-s", "256", "-o", o("%s.vips.png")], o("png9.vips.png")),
        Tool("floor: ISA-L inflate + unfilter, every row (C)", [FLOOR, "pngisal", "0", "2592", src], None, "floor"),
        Tool("floor: libpng, every row (C)", [FLOOR, "pngrows", "0", "2592", src], None, "floor"),
    ]
    for t in tools:
        run_once(t)
    for t in tools:
        if t.kind == "floor":
            check_floor(t, None)
        else:
            check_image(t, tools[0].output, (256, 192), "PSNR")
    task.tools = tools
    return task


def heic_tiles(src, dest):
    """Issue 38's HEIC floor input: the primary grid's tiles of `src` as Annex B files (dest/NNN.265)
    and its hvcC parameter sets (dest/ps.265), read by a minimal box walk (ftyp, meta: pitm, iinf,
    iloc, iref dimg, iprp ipco/ipma). Returns (ps path, [tile paths]) or None when src is no HEVC grid."""
    data = open(src, "rb").read()

    def boxes(buf, start, end):
        at = start
        while at + 8 <= end:
            size, kind = struct.unpack(">I4s", buf[at:at + 8])
            head = 8
            if size == 1:
                size, head = struct.unpack(">Q", buf[at + 8:at + 16])[0], 16
            elif size == 0:
                size = end - at
            if size < head or at + size > end:
                return
            yield kind.decode("latin-1"), at + head, at + size
            at += size

    def uint(buf, at, n):
        return int.from_bytes(buf[at:at + n], "big") if n else 0

    top = {k: (s, e) for k, s, e in boxes(data, 0, len(data))}
    if "meta" not in top:
        return None
    ms, me = top["meta"]
    meta = {k: (s, e) for k, s, e in boxes(data, ms + 4, me)}
    s, _ = meta["pitm"]
    primary = uint(data, s + 4, 2 if data[s] == 0 else 4)
    # iloc: item -> extents (absolute offsets; construction method 0 only)
    s, e = meta["iloc"]
    ver = data[s]
    at = s + 4
    osz, lsz, bsz = data[at] >> 4, data[at] & 15, data[at + 1] >> 4
    isz = data[at + 1] & 15 if ver in (1, 2) else 0
    at += 2
    n = uint(data, at, 2 if ver < 2 else 4)
    at += 2 if ver < 2 else 4
    extents = {}
    for _ in range(n):
        item = uint(data, at, 2 if ver < 2 else 4)
        at += 2 if ver < 2 else 4
        if ver in (1, 2):
            at += 2
        at += 2  # data reference index
        base = uint(data, at, bsz)
        at += bsz
        count = uint(data, at, 2)
        at += 2
        ext = []
        for _ in range(count):
            at += isz
            off = uint(data, at, osz)
            at += osz
            ln = uint(data, at, lsz)
            at += lsz
            ext.append((base + off, ln))
        extents[item] = ext
    # iref dimg of the primary: its tiles in order
    s, e = meta["iref"]
    wide = data[s] != 0
    tiles = []
    for kind, bs, be_ in boxes(data, s + 4, e):
        w = 4 if wide else 2
        src_id = uint(data, bs, w)
        if kind == "dimg" and src_id == primary:
            cnt = uint(data, bs + w, 2)
            tiles = [uint(data, bs + w + 2 + w * i, w) for i in range(cnt)]
    if not tiles:
        return None
    # hvcC of the first tile through ipma
    s, e = meta["iprp"]
    iprp = {k: (a, b) for k, a, b in boxes(data, s, e)}
    props = [(k, a, b) for k, a, b in boxes(data, *iprp["ipco"])]
    s, e = iprp["ipma"]
    ver, flags = data[s], uint(data, s + 1, 3)
    at = s + 4
    hvcc = None
    for _ in range(uint(data, at, 4) if True else 0):
        pass
    count = uint(data, at, 4)
    at += 4
    for _ in range(count):
        item = uint(data, at, 2 if ver < 1 else 4)
        at += 2 if ver < 1 else 4
        nassoc = data[at]
        at += 1
        for _ in range(nassoc):
            if flags & 1:
                idx = uint(data, at, 2) & 0x7FFF
                at += 2
            else:
                idx = data[at] & 0x7F
                at += 1
            if item == tiles[0] and idx and props[idx - 1][0] == "hvcC":
                hvcc = props[idx - 1]
    if hvcc is None:
        return None
    _, hs, he = hvcc
    length_size = (data[hs + 21] & 3) + 1
    arrays, at = data[hs + 22], hs + 23
    ps = bytearray()
    for _ in range(arrays):
        nalus = uint(data, at + 1, 2)
        at += 3
        for _ in range(nalus):
            ln = uint(data, at, 2)
            ps += b"\0\0\0\1" + data[at + 2:at + 2 + ln]
            at += 2 + ln
    os.makedirs(dest, exist_ok=True)
    ps_path = os.path.join(dest, "ps.265")
    with open(ps_path, "wb") as f:
        f.write(ps)
    paths = []
    for k, item in enumerate(tiles):
        body = b"".join(data[o:o + ln] for o, ln in extents[item])
        out, at = bytearray(), 0
        while at + length_size <= len(body):
            ln = uint(body, at, length_size)
            out += b"\0\0\0\1" + body[at + length_size:at + length_size + ln]
            at += length_size + ln
        p = os.path.join(dest, f"{k:03d}.265")
        with open(p, "wb") as f:
            f.write(out)
        paths.append(p)
    return ps_path, paths


def phone_heic():
    return next((p for p in PHONE_HEIC if os.path.exists(p)), None)


def task_phone_heic(tid, fz, subs, src):
    """A real iPhone HEIC grid (48 tiles of 512x512): a 400 px crop at the centre (4 tiles) against
    vips crop, a 16 px crop inside one tile, and a full-decode thumbnail against libde265 alone
    decoding every tile on the same 2 cores (bench/floor.c `de265`)."""
    w, h = vips_dims(src)
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    name = os.path.basename(src)
    if tid == "hp":
        task = Task(tid, "Crop of a real 12 MP iPhone HEIC", f"{name} ({w}x{h}, 512x512 HEVC tiles): 400x400 at the centre, to PNG")
        tools = [
            Tool("forcezoom crop", [fz, "crop", src, "--at", f"{w // 2},{h // 2}", "--size", "400", "-o", o("fz.png")], o("fz.png"), "fz"),
            Tool("vips crop", ["vips", "crop", src, o("vips.png"), str(w // 2 - 200), str(h // 2 - 200), "400", "400"], o("vips.png")),
            Tool("forcezoom crop, one tile (16 px)", [fz, "crop", src, "--at", "1280,768", "--size", "16", "-o", o("one.png")],
                 o("one.png"), "variant"),
        ]
        for t in tools:
            run_once(t)
        check_image(tools[0], o("vips.png"), (400, 400), "PAE")
        check_image(tools[1], o("vips.png"), (400, 400), "PAE")
        check_image(tools[2], None, (16, 16), "PAE")
    else:
        stem = os.path.splitext(name)[0]
        want = (256, round(256 * h / w)) if w >= h else (round(256 * w / h), 256)
        task = Task(tid, "256 px thumbnail, real iPhone HEIC, full decode",
                    f"{name} ({w}x{h}) to a 256 px PNG from every tile (--no-embedded-thumbnail)")
        split = heic_tiles(src, os.path.join(d, "tiles"))
        tools = [
            Tool("forcezoom thumb --no-embedded-thumbnail",
                 [fz, "thumb", src, "--size", "256", "--no-embedded-thumbnail", "--out", o("fz"), "--quiet"],
                 o(f"fz/{stem}.thumb.png"), "fz"),
            Tool("vipsthumbnail", ["vipsthumbnail", src, "-s", "256", "-o", o("%s.vips.png")], o(f"{stem}.vips.png")),
        ]
        if split:
            tools.append(Tool(f"floor: libde265 alone, {len(split[1])} tiles on 2 threads (C)",
                              [FLOOR, "de265", "2", split[0]] + split[1], None, "floor"))
        for t in tools:
            run_once(t)
        for t in tools:
            if t.kind == "floor":
                check_floor(t, None)
            else:
                check_image(t, tools[0].output, want, "PSNR")
    task.tools = tools
    return task


ULTRA_HDR = os.path.join(ROOT, "..", "shared", "formats", "hdr", "pixel6pro_ultrahdr_01.jpg")


def check_gain_map(t, want_size, kept):
    """t.output must be a JPEG of want_size that carries an Ultra HDR gain map (MPF + hdrgm XMP)
    when `kept`, and none when not."""
    if not t.ok:
        return
    try:
        with open(t.output, "rb") as f:
            data = f.read()
    except OSError as e:
        t.ok, t.skip = False, f"no output: {e}"
        return
    w, h = vips_dims(t.output)
    has = b"MPF\0" in data and b"http://ns.adobe.com/hdr-gain-map/1.0/" in data
    t.bytes = len(data)
    if (w, h) != tuple(want_size) or has != kept:
        t.ok = False
        t.skip = f"wrong output: {w}x{h}, gain map {'present' if has else 'absent'}"
    else:
        t.check = f"{w}x{h} JPEG, gain map {'kept' if kept else 'dropped'}"


def task_gain_map(tid, fz, subs, src):
    """What carrying an HDR gain map costs (issue 39): the real Pixel Ultra HDR photo (4080x3072,
    a 1020x768 map), a 400 px crop at the centre and a 256 px thumbnail, both to JPEG, with the
    map carried (the default) and dropped (`--gain-map drop`)."""
    w, h = vips_dims(src)
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    name = os.path.basename(src)
    stem = os.path.splitext(name)[0]
    if tid == "gm":
        task = Task(tid, "Crop of an Ultra HDR JPEG, its gain map carried",
                    f"{name} ({w}x{h}, 1020x768 gain map): 400x400 at the centre, to an Ultra HDR JPEG")
        at = ["--at", f"{w // 2},{h // 2}", "--size", "400"]
        tools = [
            Tool("forcezoom crop (gain map kept)", [fz, "crop", src] + at + ["-o", o("keep.jpg")], o("keep.jpg"), "fz"),
            Tool("forcezoom crop --gain-map drop", [fz, "crop", src] + at + ["--gain-map", "drop", "-o", o("drop.jpg")],
                 o("drop.jpg"), "variant"),
        ]
        want = (400, 400)
    else:
        want = (256, round(256 * h / w)) if w >= h else (round(256 * w / h), 256)
        task = Task(tid, "256 px thumbnail of an Ultra HDR JPEG, its gain map carried",
                    f"{name} ({w}x{h}) to a 256 px Ultra HDR JPEG (--no-embedded-thumbnail)")
        base = [fz, "thumb", src, "--size", "256", "--no-embedded-thumbnail", "--name", "%s.jpg", "--quiet"]
        tools = [
            Tool("forcezoom thumb (gain map kept)", base + ["--out", o("keep")], o(f"keep/{stem}.jpg"), "fz"),
            Tool("forcezoom thumb --gain-map drop", base + ["--gain-map", "drop", "--out", o("drop")],
                 o(f"drop/{stem}.jpg"), "variant"),
        ]
    for t in tools:
        run_once(t)
    check_gain_map(tools[0], want, True)
    check_gain_map(tools[1], want, False)
    task.tools = tools
    return task


LADDER = (320, 640, 1280)


def task_ladder(tid, fz, subs, src, label):
    """A ladder of three thumbnail sizes (320, 640, 1280) of one photo: forcezoom's one decode
    (`--size 320,640,1280`) against vipsthumbnail once per size and `forcezoom thumb` once per size."""
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    w, h = vips_dims(src)
    stem = os.path.splitext(os.path.basename(src))[0]
    q = shlex.quote
    want = (1280, round(1280 * h / w)) if w >= h else (round(1280 * w / h), 1280)
    task = Task(tid, f"A ladder of 3 thumbnail sizes, {label}", f"{os.path.basename(src)} ({w}x{h}) to PNGs of 320, 640 and 1280 px")
    sizes = ",".join(str(s) for s in LADDER)
    vips = " && ".join(f"vipsthumbnail {q(src)} -s {s} -o {q(o(f'%s-{s}.vips.png'))}" for s in LADDER)
    each = " && ".join(f"{q(fz)} thumb {q(src)} --size {s} --out {q(o('each'))} --name '%s-{s}.png' --quiet" for s in LADDER)
    tools = [
        Tool(f"forcezoom thumb --size {sizes}",
             [fz, "thumb", src, "--size", sizes, "--out", o("fz"), "--name", "%s-%z.png", "--quiet"],
             o(f"fz/{stem}-1280.png"), "fz"),
        Tool("vipsthumbnail once per size", ["sh", "-c", vips], o(f"{stem}-1280.vips.png")),
        Tool("forcezoom thumb once per size", ["sh", "-c", each], o(f"each/{stem}-1280.png"), "variant"),
    ]
    for t in tools:
        run_once(t)
    for t in tools:
        check_image(t, tools[0].output, want, "PSNR")
    task.tools = tools
    return task


def make_raw():
    """A 24 MP camera DNG (6000x4000 12-bit RGGB, uncompressed) with a 1620x1080 JPEG preview,
    as cameras embed one, made by Tools/raw/make-dng.py (once)."""
    rdir = os.path.join(DATA, "raw")
    dng = os.path.join(rdir, "raw24.dng")
    if not os.path.exists(dng):
        os.makedirs(rdir, exist_ok=True)
        log("raw: Tools/raw/make-dng.py --size 6000x4000 --preview 1620x1080 (once)")
        run(["/usr/bin/python3", os.path.join(ROOT, "Tools/raw/make-dng.py"), dng + ".tmp", "--size", "6000x4000",
             "--preview", "1620x1080"], timeout=1800)
        os.rename(dng + ".tmp", dng)
    return dng


def task_raw_thumb(tid, fz, subs, dng):
    """256 px thumbnail of a 24 MP DNG from its embedded JPEG preview, against libraw's own
    preview extraction (simple_dcraw -e) followed by vipsthumbnail on the extracted JPEG, and
    against that extraction followed by forcezoom's DCT-scaled JPEG thumbnail (the floor)."""
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    task = Task(tid, "256 px thumbnail, 24 MP camera DNG with a JPEG preview",
                "raw24.dng (6000x4000, 1620x1080 preview) to 256x171 PNG")
    src = o("raw24.dng")
    shutil.copyfile(dng, src)  # simple_dcraw -e writes raw24.dng.thumb.jpg beside its input
    extract = f"simple_dcraw -e {shlex.quote(src)}"
    tools = [
        Tool("forcezoom thumb (embedded preview)", [fz, "thumb", src, "--size", "256", "--out", o("fz"), "--quiet"],
             o("fz/raw24.thumb.png"), "fz"),
        Tool("simple_dcraw -e + vipsthumbnail", ["sh", "-c", f"{extract} && vipsthumbnail {shlex.quote(src)}.thumb.jpg -s 256 -o {shlex.quote(o('vips.png'))}"],
             o("vips.png")),
        Tool("floor: simple_dcraw -e + forcezoom thumb of the JPEG",
             ["sh", "-c", f"{extract} && {shlex.quote(fz)} thumb {shlex.quote(src)}.thumb.jpg --size 256 --out {shlex.quote(o('floor'))} --quiet"],
             o("floor/raw24.dng.thumb.thumb.png"), "floor"),
    ]
    for tl in tools:
        run_once(tl)
    for tl in tools:
        check_image(tl, o("fz/raw24.thumb.png"), (256, 171), "PSNR")
    task.tools = tools
    task.notes.append("goals (issue 35): >= 5x simple_dcraw -e + vipsthumbnail; within 1.3x of the floor")
    return task


def task_raw_develop(tid, fz, subs, dng):
    """The whole 24 MP DNG developed (dcraw_emu -w -q 3: as-shot white balance, AHD, sRGB, 8
    bits): forcezoom's crop develops it all before cutting 400 px; dcraw_emu writes a PPM."""
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    task = Task(tid, "Full develop of a 24 MP camera DNG",
                "raw24.dng (6000x4000) developed as dcraw_emu -w -q 3; forcezoom: a 400 px crop of it")
    tools = [
        Tool("forcezoom crop (whole develop)", [fz, "crop", dng, "--at", "3000,2000", "--size", "400", "--depth", "8",
                                                "-o", o("fz.png")], o("fz.png"), "fz"),
        Tool("dcraw_emu -w -q 3", ["dcraw_emu", "-w", "-q", "3", "-Z", o("ref.ppm"), dng], o("ref.ppm")),
    ]
    for tl in tools:
        run_once(tl)
    check_image(tools[0], None, (400, 400), "PAE")
    task.tools = tools
    task.notes.append("goal (issue 35): within 1.2x of dcraw_emu; RAWCLITests checks the pixels equal dcraw_emu's")
    return task


def batch_tools(d, fz, files):
    """The two batch tools of tasks 13 and mx, run once and checked: forcezoom's one `thumb`
    of all the files, and vipsthumbnail under `xargs -P2 -n5`, each to 256 px PNGs in d."""

    def prep(path):
        return ["sh", "-c", f"rm -rf {shlex.quote(path)} && mkdir -p {shlex.quote(path)}"]

    listfile = os.path.join(d, "files.txt")
    with open(listfile, "w") as f:
        f.write("\n".join(files) + "\n")
    p = os.path.join(d, "fz")
    tools = [Tool("forcezoom thumb (default jobs)", [fz, "thumb"] + files + ["--size", "256", "--out", p, "--quiet"], p, "fz",
                  prepare=prep(p))]
    tools[-1].suffix = ".thumb.png"
    p = os.path.join(d, "vips-xargs")
    tools.append(Tool("vipsthumbnail, xargs -P2 -n5",
                      ["sh", "-c", f"xargs -d '\\n' -P2 -n5 vipsthumbnail -s 256 -o {p}/%s.png < {shlex.quote(listfile)}"], p,
                      prepare=prep(p)))
    tools[-1].suffix = ".png"
    for t in tools:
        run_once(t)
        check_batch(t, len(files), t.suffix)
    return tools


def task_mixed_batch(tid, fz, subs, fdir):
    mixed = os.path.join(fdir, "mixed")
    files = sorted(os.path.join(mixed, f) for f in os.listdir(mixed))
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    kinds = {e: sum(f.endswith(e) for f in files) for e in (".jpg", ".heic", ".webp")}
    task = Task(tid, "Batch of JPEG, HEIC and WebP photos to 256 px PNG",
                f"{len(files)} files ({kinds['.jpg']} JPEG, {kinds['.heic']} HEIC with 320 px thumbnails, {kinds['.webp']} WebP; "
                "2-13 MP, from batch200), each to a 256 px thumbnail PNG")
    task.images = len(files)

    task.tools = batch_tools(d, fz, files)
    return task


MESSY_RECIPE = "messy v1"


def make_messy():
    """Issue 35: a photo folder as people have one, once: 36 photos of batch200 (2-13 MP) in
    nested year/month folders as 9 JPEG and 3 each of HEIC, WebP, PNG (8-bit), PNG (16-bit
    with alpha), TIFF, GIF, BMP, JPEG XL and camera DNG, plus what phones and cameras leave
    beside them: a QuickTime clip, an .AAE sidecar, an XMP sidecar and a text file."""
    mdir = os.path.join(DATA, "messy")
    stamp = os.path.join(mdir, ".done")
    if os.path.exists(stamp) and open(stamp).read().startswith(MESSY_RECIPE):
        return mdir
    shutil.rmtree(mdir, ignore_errors=True)
    log("messy: 36 photos in 12 formats from batch200, plus a clip and sidecars (once)")
    files, mps = batch_files()
    jpgs = [f for f, mp in zip(files, mps) if f.endswith(".jpg") and 2 <= mp <= 13]
    for i in range(36):
        f = jpgs[(30 + i) % len(jpgs)]
        sub = os.path.join(mdir, str(2021 + i % 3), f"{i % 12 + 1:02d}")
        os.makedirs(sub, exist_ok=True)
        stem = os.path.join(sub, f"IMG_{1000 + i}")
        kind = i % 12
        if kind < 3:
            shutil.copyfile(f, stem + ".jpg")
        elif kind == 3:
            run(["heif-enc", "-q", "50", "-t", "320", f, "-o", stem + ".heic"], timeout=1800)
        elif kind == 4:
            run(["cwebp", "-quiet", "-q", "80", f, "-o", stem + ".webp"])
        elif kind == 5:
            run(["vips", "copy", f, stem + ".png"])
        elif kind == 6:
            run(["vips", "colourspace", f, stem + ".v", "rgb16"])
            run(["vips", "bandjoin_const", stem + ".v", stem + ".png", "65535"])
            os.remove(stem + ".v")
        elif kind == 7:
            run(["vips", "tiffsave", f, stem + ".tif", "--compression", "deflate"])
        elif kind == 8:
            run(["vips", "gifsave", f, stem + ".gif"])
        elif kind == 9:
            run([IM_CONVERT, f, stem + ".bmp"])
        elif kind == 10:
            run(["cjxl", f, stem + ".jxl", "-q", "80"], timeout=1800)
        else:
            run(["/usr/bin/python3", os.path.join(ROOT, "Tools/raw/make-dng.py"), stem + ".dng", "--size", "3000x2000",
                 "--preview", "1620x1080"], timeout=1800)
    extra = os.path.join(mdir, "2021", "01")
    with open(os.path.join(extra, "IMG_1000.MOV"), "wb") as g:
        g.write(struct.pack(">I", 20) + b"ftypqt  \x00\x00\x02\x00qt  " + bytes(4096))
    with open(os.path.join(extra, "IMG_1000.AAE"), "w") as g:
        g.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict/></plist>\n')
    with open(os.path.join(extra, "IMG_1001.xmp"), "w") as g:
        g.write('<x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>\n')
    with open(os.path.join(mdir, "notes.txt"), "w") as g:
        g.write("holiday photos\n")
    open(stamp, "w").write(MESSY_RECIPE + "\n")
    return mdir


def task_messy(tid, fz, subs, mdir):
    """Issue 35's messy folder. Untimed: `thumb -r --json` must give every file of the folder a
    record, a thumbnail or a skip with its reason. Timed: the files that both forcezoom and
    vipsthumbnail read, forcezoom's one batch against vipsthumbnail under xargs -P2."""
    every = sorted(os.path.join(dp, n) for dp, _, ns in os.walk(mdir) for n in ns if n != ".done")
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    r = run([fz, "thumb", mdir, "--recursive", "--size", "256", "--out", os.path.join(d, "all"), "--json", "--quiet"],
            check=False)
    records = {}
    for line in r.stdout.splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and "input" in rec:
            records[os.path.abspath(rec["input"])] = rec
    made = [p for p in every if records.get(p, {}).get("status") == "made"]
    named = [p for p in every if p in records and (p in made or records[p].get("reason"))]
    # The files vipsthumbnail reads too, found by running it once on each.
    probe = fresh_dir(os.path.join(d, "probe"))
    both = [p for p in made
            if run(["vipsthumbnail", p, "-s", "256", "-o", os.path.join(probe, "%s.png")], check=False).returncode == 0]
    exts = sorted({os.path.splitext(p)[1].lower() for p in both})
    task = Task(tid, "Messy photo folder (issue 35)",
                f"{len(every)} files in nested folders: {len(made)} thumbnailed and {len(named) - len(made)} named as skipped by "
                f"`forcezoom thumb -r`; timed on the {len(both)} both tools read ({', '.join(exts)}), each to a 256 px PNG")
    task.images = len(both)
    task.named = (len(named), len(every))
    skipped = [f"{os.path.basename(p)}: {records[p].get('reason')}" for p in named if p not in made]
    task.notes.append("skipped with their reasons: " + "; ".join(skipped))
    missing = [os.path.relpath(p, mdir) for p in every if p not in named]
    if missing:
        task.notes.append("NOT thumbnailed and NOT named: " + ", ".join(missing))

    task.tools = batch_tools(d, fz, both)
    return task


def task_thumb(tid, fz, subs, src):
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    task = Task(tid, "256 px thumbnail, 20 MP JPEG", "large.jpg to a 256 px (long side) thumbnail PNG, 256x144")
    tools = []
    fzdir = os.path.join(d, "fz")
    tools.append(Tool("forcezoom thumb", [fz, "thumb", src, "--size", "256", "--out", fzdir, "--quiet"],
                      os.path.join(fzdir, "large.thumb.png"), "fz"))
    tools += [
        Tool("vipsthumbnail", ["vipsthumbnail", src, "-s", "256", "-o", o("%s.vips.png")], o("large.vips.png")),
        Tool("ImageMagick -thumbnail", [IM_CONVERT, src, "-thumbnail", "256x256", o("im.png")], o("im.png")),
        Tool("ImageMagick -define jpeg:size -thumbnail",
             [IM_CONVERT, "-define", "jpeg:size=512x512", src, "-thumbnail", "256x256", o("im-size.png")], o("im-size.png")),
        Tool("gm convert -size 512x512 -thumbnail", ["gm", "convert", "-size", "512x512", src, "-thumbnail", "256x256", o("gm.png")], o("gm.png")),
        Tool("floor: 1/8 decode (C)", [FLOOR, "scale", "8", src], None, "floor"),
    ]
    for t in tools:
        run_once(t)
    ref = tools[0].output if tools[0].kind == "fz" and tools[0].ok else o("large.vips.png")
    for t in tools:
        if t.kind == "floor":
            check_floor(t, None)
        else:
            check_image(t, ref, (256, 144), "PSNR")
    task.tools = tools
    return task


def task_thumb_srgb(tid, fz, subs, src):
    """256 px thumbnail of large.jpg tagged Adobe RGB (1998), exported as sRGB: the colour
    conversion on the reduced image (issue 13)."""
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    o = lambda n: os.path.join(d, n)
    adobe = os.path.join(DATA, "large-adobergb.jpg")
    if not os.path.exists(adobe):
        icc = os.path.join(DATA, "adobergb.icc")
        run(["/usr/bin/python3", os.path.join(ROOT, "Tools", "fixtures", "make-icc.py"), "--adobe-rgb", icc])
        with open(adobe + ".tmp", "wb") as f:
            subprocess.run(["jpegtran", "-copy", "all", "-icc", icc, src], stdout=f, check=True)
        os.replace(adobe + ".tmp", adobe)
    task = Task(tid, "256 px sRGB thumbnail, 20 MP Adobe RGB JPEG",
                "large.jpg with an Adobe RGB (1998) profile embedded (jpegtran -icc, same pixels) to a 256 px thumbnail PNG "
                "converted to sRGB (relative colorimetric with black-point compensation in both tools)")
    fzdir = os.path.join(d, "fz")
    tools = [
        Tool("forcezoom thumb --icc srgb", [fz, "thumb", adobe, "--size", "256", "--icc", "srgb", "--out", fzdir, "--quiet"],
             os.path.join(fzdir, "large-adobergb.thumb.png"), "fz"),
        Tool("vipsthumbnail -e srgb (--export-profile srgb)", ["vipsthumbnail", adobe, "-s", "256", "-e", "srgb", "-o", o("%s.vips.png")],
             o("large-adobergb.vips.png")),
        Tool("forcezoom thumb (--icc keep, no conversion)", [fz, "thumb", adobe, "--size", "256", "--out", os.path.join(d, "keep"), "--quiet"],
             os.path.join(d, "keep", "large-adobergb.thumb.png"), "variant"),
    ]
    for t in tools:
        run_once(t)
    ref = tools[0].output if tools[0].ok else o("large-adobergb.vips.png")
    for t in tools:
        check_image(t, ref, (256, 144), "PSNR")
    task.tools = tools
    return task


def task_batch(tid, fz, subs, slow_runs):
    files, mps = batch_files()
    d = fresh_dir(os.path.join(OUT, f"t{tid}"))
    listfile = os.path.join(d, "files.txt")
    with open(listfile, "w") as f:
        f.write("\n".join(files) + "\n")
    task = Task(tid, "Batch of 200 photos to 256 px PNG",
                f"{len(files)} files, {min(mps):.1f}-{max(mps):.1f} MP ({sum(mps):.0f} MP in all), each to a 256 px thumbnail PNG")
    task.images = len(files)

    def prep(path):
        return ["sh", "-c", f"rm -rf {shlex.quote(path)} && mkdir -p {shlex.quote(path)}"]

    tools = []
    p = os.path.join(d, "fz")
    tools.append(Tool("forcezoom thumb (default jobs)", [fz, "thumb"] + files + ["--size", "256", "--out", p, "--quiet"], p, "fz",
                      prepare=prep(p)))
    tools[-1].suffix = ".thumb.png"
    p = os.path.join(d, "vips-xargs")
    tools.append(Tool("vipsthumbnail, xargs -P2 -n10",
                      ["sh", "-c", f"xargs -d '\\n' -P2 -n10 vipsthumbnail -s 256 -o {p}/%s.png < {shlex.quote(listfile)}"], p,
                      prepare=prep(p),
                      note="20 processes of 10 files, two at a time; -n1 (a process per file) pays vips's start-up 200 times "
                           "and took about twice as long in a trial"))
    tools[-1].suffix = ".png"
    p = os.path.join(d, "vips-one")
    tools.append(Tool("vipsthumbnail, one process", ["vipsthumbnail"] + files + ["-s", "256", "-o", f"{p}/%s.png"], p, prepare=prep(p)))
    tools[-1].suffix = ".png"
    slow_note = f"{slow_runs} runs, timed right after the others (one run takes 15-30 s)"
    p = os.path.join(d, "mogrify")
    tools.append(Tool("mogrify -thumbnail", [IM_MOGRIFY, "-path", p, "-format", "png", "-thumbnail", "256x256"] + files, p,
                      prepare=prep(p), note=slow_note))
    tools[-1].suffix = ".png"
    p = os.path.join(d, "mogrify-size")
    tools.append(Tool("mogrify -define jpeg:size -thumbnail",
                      [IM_MOGRIFY, "-path", p, "-format", "png", "-define", "jpeg:size=512x512", "-thumbnail", "256x256"] + files, p,
                      prepare=prep(p), note=slow_note))
    tools[-1].suffix = ".png"
    tools[-1].runs = tools[-2].runs = slow_runs
    for t in tools:
        run_once(t)
        check_batch(t, len(files), t.suffix)
    task.tools = tools
    return task


def png_settings(fz, subs, runs):
    """forcezoom crop --compression 1..9 on a region of 1170x2532's pixel count (crop is square:
    1721x1721 = 2.96 MP), time and bytes, against vips crop of the same pixels."""
    src = os.path.join(PHOTOS, "large.jpg")
    d = fresh_dir(os.path.join(OUT, "png"))
    n = 1721
    px, py = 3008, 1695
    x, y = px - n // 2, py - n // 2
    tools = []
    for level in range(1, 10):
        out = os.path.join(d, f"fz-{level}.png")
        tools.append(Tool(f"forcezoom crop --compression {level}" + (" (default)" if level == 2 else ""),
                          [fz, "crop", src, "--at", f"{px},{py}", "--size", str(n), "--compression", str(level), "-o", out], out, "fz"))
    tools.append(Tool("vips crop (default, compression 6)", ["vips", "crop", src, os.path.join(d, "vips.png"), str(x), str(y), str(n), str(n)],
                      os.path.join(d, "vips.png")))
    tools.append(Tool("vips crop [compression=9]", ["vips", "crop", src, os.path.join(d, "vips-9.png") + "[compression=9]", str(x), str(y), str(n), str(n)],
                      os.path.join(d, "vips-9.png")))
    for t in tools:
        run_once(t)
    for t in tools:
        check_image(t, os.path.join(d, "vips.png"), (n, n), "PAE")
    hyperfine("png", tools, runs, 1)
    return dict(region=f"{n}x{n} at ({x},{y}) of large.jpg", tools=tools)


# --------------------------------------------------------------------------------------
# Report


def fmt_ms(v):
    if v is None:
        return "-"
    return f"{v:.0f}" if v >= 100 else (f"{v:.1f}" if v >= 10 else f"{v:.2f}")


def fmt_mb(kb):
    return "-" if kb is None else f"{kb / 1024:.1f}"


def fmt_bytes(b):
    return "-" if b is None else f"{b:,}"


def summarize(task):
    fz = next((t for t in task.tools if t.kind == "fz" and t.times), None)
    peers = [t for t in task.tools if t.kind == "peer" and t.times]
    best = min(peers, key=lambda t: t.median) if peers else None
    floors = {t.name: t for t in task.tools if t.kind == "floor" and t.times}
    return fz, best, floors


def table(task):
    fz, best, floors = summarize(task)
    lines = []
    lines.append(f"### {task.id}. {task.title}\n")
    during = "" if task.others is None else f", {task.others:.0%} while it was timed"
    lines.append(task.what + f". Other processes used {task.busy:.0%} of the CPUs just before this task{during}.\n")
    batch = task.images is not None
    head = "| tool | median ms | min–max ms | " + ("images/s | " if batch else "") + "peak RSS MB | output bytes | vs forcezoom | check |"
    lines.append(head)
    lines.append("|" + " --- |" * (head.count("|") - 1))
    for t in task.tools:
        if t.times:
            base = fz
            if t.kind == "peer-full":  # compared with forcezoom's row on the same file
                base = next((x for x in task.tools if x.kind == "variant" and x.times), fz)
            ratio = "1 (forcezoom)" if t is fz else (f"{t.median / base.median:.2f}x" if base else "-")
            ips = f" {task.images / (t.median / 1000):.1f} |" if batch else ""
            lines.append(f"| {t.name} | {fmt_ms(t.median)} | {fmt_ms(min(t.times))}–{fmt_ms(max(t.times))} |{ips} "
                         f"{fmt_mb(t.rss_kb)} | {fmt_bytes(t.bytes)} | {ratio} | {t.check} |")
        else:
            why = t.skip or "not timed"
            lines.append(f"| {t.name} | not timed: {why} |" + " |" * (head.count("|") - 3))
    lines.append("")
    if fz and best:
        lines.append(f"forcezoom: {best.median / fz.median:.2f}x faster than the fastest peer ({best.name}, {fmt_ms(best.median)} ms).")
    for name, fl in floors.items():
        if fz:
            lines.append(f"forcezoom's time / {name} ({fmt_ms(fl.median)} ms): {fz.median / fl.median:.2f}.")
    for n in task.notes:
        lines.append(f"- {n}")
    for t in task.tools:
        if t.note:
            lines.append(f"- {t.name}: {t.note}.")
    lines.append("")
    lines.append("<details><summary>commands</summary>\n")
    lines.append("```")
    for t in task.tools:
        lines.append(f"# {t.name}")
        lines.append(t.shown_command() if len(t.argv) < 40 else
                     shlex.join(t.argv[:6]).replace(ROOT + "/", "").replace(WORK + "/", "") + f" ... ({len(t.argv)} arguments)")
    lines.append("```\n</details>\n")
    return "\n".join(lines)


def verdict(measured, target, higher_is_better, unit="x"):
    if measured is None:
        return "not measured", ""
    if higher_is_better:
        ok = measured >= target
        by = (measured / target - 1) * 100
    else:
        ok = measured <= target
        by = (1 - measured / target) * 100
    return ("met" if ok else "MISSED"), (f"by {abs(by):.1f}%" if not ok else f"margin {by:.1f}%")


def targets(tasks, png):
    rows = []
    get = {t.id: t for t in tasks}

    def add(name, measured, target, higher, show):
        v, by = verdict(measured, target, higher)
        rows.append(f"| {name} | {show(target)} | {'-' if measured is None else show(measured)} | {v} {by} |")

    times = lambda v: f"{v:.3f}x"
    # The first timed tool of task `tid` that `test` accepts.
    timed = lambda tid, test: next((t for t in get[tid].tools if test(t) and t.times), None)
    if "1" in get:
        fz, best, floors = summarize(get["1"])
        add("1. crop 20 MP JPEG: speed-up over fastest peer", best.median / fz.median if fz and best else None, 3.0, True, times)
        fl = floors.get("floor: crop decode (C)")
        add("1. crop 20 MP JPEG: time / crop-decode floor", fz.median / fl.median if fz and fl else None, 1.5, False, times)
        peers = [t for t in get["1"].tools if t.kind == "peer" and t.rss_kb]
        best_rss = min(peers, key=lambda t: t.rss_kb) if peers else None
        if fz and best_rss and fz.rss_kb:
            add(f"1. crop 20 MP JPEG: peak RSS / best peer's ({best_rss.name}, {fmt_mb(best_rss.rss_kb)} MB)",
                fz.rss_kb / best_rss.rss_kb, 0.25, False, lambda v: f"{v:.2f}")
            add("1. crop 20 MP JPEG: peak RSS, MB", fz.rss_kb / 1024, 16, False, lambda v: f"{v:.1f} MB")
        else:
            add("1. crop 20 MP JPEG: peak RSS / best peer's", None, 0.25, False, lambda v: f"{v:.2f}")
    if "2" in get:
        fz, best, _ = summarize(get["2"])
        add("2. crop 12 MP PNG: speed-up over fastest peer", best.median / fz.median if fz and best else None, 2.0, True, times)
    if "3" in get:
        fz, best, floors = summarize(get["3"])
        add("3. fit 1170x2532: speed-up over fastest peer", best.median / fz.median if fz and best else None, 3.0, True, times)
        fl = floors.get("floor: fit, one thread (C)")
        add("3. fit 1170x2532: time / single-thread fit floor (below 1: faster)", fz.median / fl.median if fz and fl else None, 1.0,
            False, times)
        add("3. fit 1170x2532: peak RSS, MB", fz.rss_kb / 1024 if fz and fz.rss_kb else None, 40, False, lambda v: f"{v:.1f} MB")
    if "6" in get:
        tools = get["6"].tools
        par = next((t for t in tools if t.kind == "fz" and t.times), None)
        ser = next((t for t in tools if t.kind == "variant" and t.times), None)
        dec = next((t for t in tools if t.kind == "floor" and t.times), None)
        if par and ser and dec:
            # The decode is the same in both rows: the encode's share is what remains.
            add("6. PNG encode 2.96 MP: serial / parallel encode time (crop time less the stored PNG's decode)",
                (ser.median - dec.median) / max(1e-9, par.median - dec.median), 1.7, True, times)
        else:
            add("6. PNG encode 2.96 MP: serial / parallel, whole process", ser.median / par.median if par and ser else None, 1.7, True, times)
        add("6. PNG encode 2.96 MP: bytes parallel / serial", par.bytes / ser.bytes if par and ser and ser.bytes else None, 1.02, False,
            lambda v: f"{v:.4f}")
    for tid, what in (("8", "frame 2532x1170"), ("9", "transform --rotate 15")):
        if tid in get:
            fz, best, _ = summarize(get[tid])
            add(f"{tid}. {what}: speed-up over fastest peer", best.median / fz.median if fz and best else None, 3.0, True, times)
    if "14" in get:
        fz, best, _ = summarize(get["14"])
        add("14. sRGB thumbnail of an Adobe RGB 20 MP JPEG: speed-up over vipsthumbnail -e srgb",
            best.median / fz.median if fz and best else None, 1.5, True, times)
        keep = next((t for t in get["14"].tools if t.kind == "variant" and t.times), None)
        add("14. the conversion's cost: --icc srgb time / --icc keep time", fz.median / keep.median if fz and keep else None, 1.1, False,
            times)
    if "10" in get:
        tools = get["10"].tools
        pick = lambda kind: next((t for t in tools if t.kind == kind and t.times), None)
        fz, vp, fzn, vpn = pick("fz"), pick("peer"), pick("variant"), pick("peer-full")
        add("10. HEIC thumbnail, embedded thumbnail: speed-up over vipsthumbnail", vp.median / fz.median if fz and vp else None, 1.5, True,
            times)
        add("10. HEIC thumbnail, full decode: speed-up over vipsthumbnail", vpn.median / fzn.median if fzn and vpn else None, 1.5, True,
            times)
    for tid, what in (("11", "HEIC"), ("12", "WebP")):
        if tid in get:
            fz, vp = timed(tid, lambda t: t.kind == "fz"), timed(tid, lambda t: t.name == "vips crop")
            add(f"{tid}. crop 12 MP {what}: speed-up over vips crop", vp.median / fz.median if fz and vp else None, 1.0, True, times)
            if fz and fz.rss_kb and vp and vp.rss_kb:
                add(f"{tid}. crop 12 MP {what}: peak RSS / vips crop's ({fmt_mb(vp.rss_kb)} MB)", fz.rss_kb / vp.rss_kb, 1.0, False,
                    lambda v: f"{v:.2f}")
    for tid, what in (("jxl", "crop"), ("jxlt", "thumbnail")):
        if tid in get:
            fz, dj = timed(tid, lambda t: t.kind == "fz"), timed(tid, lambda t: t.name.startswith("djxl"))
            add(f"{tid}. {what} 12 MP JPEG XL: time / djxl's decode, same cores", fz.median / dj.median if fz and dj else None,
                1.15, False, times)
    if "mx" in get:
        n, total = getattr(get["mx"], "named", (0, 0))
        add("mx. messy folder: files thumbnailed or named with a reason / files", n / total if total else None, 1.0, True,
            lambda v: f"{v:.0%}")
        fz, vx = timed("mx", lambda t: t.kind == "fz"), timed("mx", lambda t: t.name.startswith("vipsthumbnail"))
        add("mx. messy folder, files both read: throughput / vipsthumbnail xargs -P2", vx.median / fz.median if fz and vx else None,
            1.5, True, times)
    if "r1" in get:
        fz = timed("r1", lambda t: t.kind == "fz")
        vx = timed("r1", lambda t: t.kind == "peer")
        fl = timed("r1", lambda t: t.kind == "floor")
        add("r1. RAW thumbnail: speed-up over simple_dcraw -e + vipsthumbnail", vx.median / fz.median if fz and vx else None, 5.0,
            True, times)
        add("r1. RAW thumbnail: time / (simple_dcraw -e + our DCT-scaled thumbnail)", fz.median / fl.median if fz and fl else None,
            1.3, False, times)
    if "r2" in get:
        fz, dc = timed("r2", lambda t: t.kind == "fz"), timed("r2", lambda t: t.name.startswith("dcraw_emu"))
        add("r2. full develop of a 24 MP DNG: time / dcraw_emu's", fz.median / dc.median if fz and dc else None, 1.2, False, times)
    if "13" in get:
        fz, best, _ = summarize(get["13"])
        add("13. mixed batch: throughput / vipsthumbnail xargs -P2", best.median / fz.median if fz and best else None, 1.5, True, times)
    if "4" in get:
        fz, best, floors = summarize(get["4"])
        add("4. thumbnail: speed-up over fastest peer", best.median / fz.median if fz and best else None, 1.5, True, times)
        fl = floors.get("floor: 1/8 decode (C)")
        add("4. thumbnail: time / 1/8-decode floor", fz.median / fl.median if fz and fl else None, 1.5, False, times)
    if "5" in get:
        task = get["5"]
        fz = next((t for t in task.tools if t.kind == "fz" and t.times), None)
        vx = next((t for t in task.tools if t.name.startswith("vipsthumbnail, xargs") and t.times), None)
        add("5. batch: throughput / vipsthumbnail xargs -P2", vx.median / fz.median if fz and vx else None, 1.5, True, times)
    for tid in ("1", "2"):
        if tid in get:
            fz = next((t for t in get[tid].tools if t.kind == "fz" and t.bytes), None)
            vp = next((t for t in get[tid].tools if t.name == "vips crop" and t.bytes), None)
            add(f"7. PNG bytes, task {tid} crop: forcezoom / vips, same pixels", fz.bytes / vp.bytes if fz and vp else None, 1.10, False,
                lambda v: f"{v:.3f}")
    if png:
        fz = next((t for t in png["tools"] if "(default)" in t.name and t.bytes), None)
        vp = next((t for t in png["tools"] if t.name.startswith("vips crop (default") and t.bytes), None)
        add("7. PNG bytes, 2.96 MP region: forcezoom default / vips default", fz.bytes / vp.bytes if fz and vp else None, 1.10, False,
            lambda v: f"{v:.3f}")
    # Issue 25: HEIC grids (tile-aware crops, streamed whole decodes).
    mb = lambda v: f"{v:.1f} MB"
    for tid, label, need in (("g12", "12 MP", 8.0), ("g48", "48 MP", 20.0), ("g200", "200 MP", 40.0)):
        if tid in get:
            fz, vp = timed(tid, lambda t: t.kind == "fz"), timed(tid, lambda t: t.name == "vips crop")
            add(f"{tid}. 400 px crop of a {label} HEIC grid: speed-up over vips crop",
                vp.median / fz.median if fz and vp else None, need, True, times)
            add(f"{tid}. 400 px crop of a {label} HEIC grid: peak RSS, MB",
                fz.rss_kb / 1024 if fz and fz.rss_kb else None, 64, False, mb)
    for tid, what, peer, need in (
            ("gt12", "256 px thumbnail of a 12 MP HEIC grid, --no-embedded-thumbnail: speed-up over vipsthumbnail",
             lambda t: t.name == "vipsthumbnail", 1.7),
            ("gf12", "fit of a 12 MP HEIC grid to 1170x2532: speed-up over vips thumbnail + rot + gravity",
             lambda t: t.kind == "peer", 2.0)):
        if tid in get:
            fz, vp = timed(tid, lambda t: t.kind == "fz"), timed(tid, peer)
            add(f"{tid}. {what}", vp.median / fz.median if fz and vp else None, need, True, times)
    if "gt200" in get:
        fz = timed("gt200", lambda t: t.kind == "fz")
        add("gt200. 256 px thumbnail of a 200 MP HEIC grid, default limits: peak RSS, MB",
            fz.rss_kb / 1024 if fz and fz.rss_kb else None, 256, False, mb)
    # Issue 35: TIFF (tiles a crop touches; a pyramid's reduced level for a thumbnail).
    if "tt200" in get:
        fz, vp = timed("tt200", lambda t: t.kind == "fz"), timed("tt200", lambda t: t.name == "vips crop")
        add("tt200. 400 px crop of a 200 MP tiled TIFF: speed-up over vips crop", vp.median / fz.median if fz and vp else None,
            1.5, True, times)
        add("tt200. 400 px crop of a 200 MP tiled TIFF: peak RSS, MB", fz.rss_kb / 1024 if fz and fz.rss_kb else None, 64, False, mb)
    if "tp12" in get:
        fz, vp = timed("tp12", lambda t: t.kind == "fz"), timed("tp12", lambda t: t.name == "vipsthumbnail")
        add("tp12. 256 px thumbnail of a pyramidal TIFF: speed-up over vipsthumbnail", vp.median / fz.median if fz and vp else None,
            1.0, True, times)
    # Issue 38: the PNG and HEIC floors, the ladder.
    if "p9" in get:
        fz, vp = timed("p9", lambda t: t.kind == "fz"), timed("p9", lambda t: t.name == "vips crop")
        fl = timed("p9", lambda t: t.name.startswith("floor: ISA-L"))
        add("p9. 400 px crop of a 9 MP photo PNG: speed-up over vips crop", vp.median / fz.median if fz and vp else None, 3.0, True,
            times)
        add("p9. its peak RSS, MB", fz.rss_kb / 1024 if fz and fz.rss_kb else None, 20, False, mb)
        add("p9. time / ISA-L inflate + unfilter of the same rows (C floor)", fz.median / fl.median if fz and fl else None, 1.2,
            False, times)
    if "p9t" in get:
        fz, vp = timed("p9t", lambda t: t.kind == "fz"), timed("p9t", lambda t: t.name == "vipsthumbnail")
        fl = timed("p9t", lambda t: t.name.startswith("floor: ISA-L"))
        add("p9t. 256 px thumbnail of a 9 MP photo PNG (full decode): speed-up over vipsthumbnail",
            vp.median / fz.median if fz and vp else None, 2.0, True, times)
        add("p9t. time / ISA-L inflate + unfilter of every row (C floor)", fz.median / fl.median if fz and fl else None, 1.2, False,
            times)
    if "hp" in get:
        fz, vp = timed("hp", lambda t: t.kind == "fz"), timed("hp", lambda t: t.name == "vips crop")
        one = timed("hp", lambda t: t.kind == "variant")
        add("hp. 400 px crop of a real 12 MP iPhone HEIC: speed-up over vips crop", vp.median / fz.median if fz and vp else None,
            8.0, True, times)
        add("hp. 16 px crop inside one tile, ms", one.median if one else None, 25, False, lambda v: f"{v:.1f} ms")
    if "hpt" in get:
        fz, fl = timed("hpt", lambda t: t.kind == "fz"), timed("hpt", lambda t: t.kind == "floor")
        add("hpt. full-decode thumbnail of the iPhone HEIC: time / libde265 alone on 2 threads",
            fz.median / fl.median if fz and fl else None, 1.15, False, times)
    for tid, label in (("l20", "20 MP JPEG"), ("lh12", "12 MP iPhone HEIC grid")):
        if tid in get:
            fz, vp = timed(tid, lambda t: t.kind == "fz"), timed(tid, lambda t: t.kind == "peer")
            each = timed(tid, lambda t: t.kind == "variant")
            add(f"{tid}. ladder 320,640,1280 of a {label}: speed-up over vipsthumbnail once per size",
                vp.median / fz.median if fz and vp else None, 2.5, True, times)
            add(f"{tid}. ladder: speed-up over forcezoom thumb once per size", each.median / fz.median if fz and each else None, 1.8,
                True, times)
    # Issue 39: what carrying a gain map costs, against the same output without it.
    for tid, what in (("gm", "400 px crop"), ("gmt", "256 px thumbnail")):
        if tid in get:
            fz, drop = timed(tid, lambda t: t.kind == "fz"), timed(tid, lambda t: t.kind == "variant")
            add(f"{tid}. {what} of an Ultra HDR JPEG: time with the gain map / without", fz.median / drop.median
                if fz and drop else None, 1.25, False, times)
    # Issue 50: video posters and a batch of clips against ffmpegthumbnailer.
    for tid, label in (("v4k", "4K HEVC rotated 90"), ("v1080", "1080p H.264")):
        if tid in get:
            fz = timed(tid, lambda t: t.kind == "fz")
            ft = timed(tid, lambda t: t.name.startswith("ffmpegthumbnailer"))
            add(f"{tid}. 256 px poster of a 30 s {label}: speed-up over ffmpegthumbnailer -s 256",
                ft.median / fz.median if fz and ft else None, 1.5, True, times)
            add(f"{tid}. poster: peak RSS, MB", fz.rss_kb / 1024 if fz and fz.rss_kb else None, 120, False,
                lambda v: f"{v:.1f} MB")
    if "vb20" in get:
        fz = timed("vb20", lambda t: t.kind == "fz")
        ft = timed("vb20", lambda t: t.name.startswith("ffmpegthumbnailer"))
        add("vb20. 20 video clips: throughput / ffmpegthumbnailer two at a time", ft.median / fz.median if fz and ft else None,
            1.5, True, times)
    # Issue 49: where to look. Attention thumbnails against vipsthumbnail's own attention crop,
    # and a crop at a named region against the same crop given as numbers.
    for tid, label in (("at20", "20 MP JPEG"), ("ath12", "12 MP iPhone HEIC")):
        if tid in get:
            fz, vp = timed(tid, lambda t: t.kind == "fz"), timed(tid, lambda t: t.kind == "peer")
            add(f"{tid}. 256x256 --crop-at attention of the {label}: speed-up over vipsthumbnail --smartcrop attention",
                vp.median / fz.median if fz and vp else None, 2.0, True, times)
    if "rg" in get:
        fz, point = timed("rg", lambda t: t.kind == "fz"), timed("rg", lambda t: t.kind == "variant")
        add("rg. crop --at region:NAME of the 20 MP JPEG: time / the same crop --at X,Y",
            fz.median / point.median if fz and point else None, 1.05, False, times)
    noisy = [f"{t.id} ({t.others:.0%})" for t in tasks if t.others is not None and t.others >= 0.15]
    warn = (f"**Noisy:** other processes used at least 15% of the CPUs while these tasks were timed: {', '.join(noisy)}; "
            "re-run on a quiet machine before trusting their ratios.\n") if noisy else ""
    out = ["## Targets\n", "Ratios from this run. \"margin\" is how far past the target; \"by\" how far short.\n", warn,
           "| target | required | measured | verdict |", "| --- | --- | --- | --- |"] + rows
    return "\n".join(out) + "\n"


def png_table(png):
    if not png:
        return ""
    tools = png["tools"]
    vp = next((t for t in tools if t.name.startswith("vips crop (default") and t.bytes), None)
    lines = ["## PNG encode settings (forcezoom crop --compression)\n",
             f"{png['region']}: a square of the same pixel count as a 1170x2532 screen (crop cuts squares), "
             "whole process including the region decode. vips is the byte reference (same pixels, checked). "
             f"Other processes used {png.get('busy', 0):.0%} of the CPUs just before this, "
             f"{png.get('others', 0):.0%} while it was timed.\n",
             "| setting | median ms | min–max ms | bytes | bytes / vips default |", "| --- | --- | --- | --- | --- |"]
    for t in tools:
        if t.times and t.bytes:
            rel = f"{t.bytes / vp.bytes:.3f}" if vp else "-"
            lines.append(f"| {t.name} | {fmt_ms(t.median)} | {fmt_ms(min(t.times))}–{fmt_ms(max(t.times))} | {t.bytes:,} | {rel} |")
        else:
            lines.append(f"| {t.name} | not timed: {t.skip} | | | |")
    d = next((t for t in tools if "(default)" in t.name and t.bytes), None)
    if d and vp:
        r = d.bytes / vp.bytes
        lines.append(f"\nDefault (2): {r:.3f} of vips's bytes: {'within' if r <= 1.10 else 'NOT within'} 10%.\n")
    return "\n".join(lines) + "\n"


def versions(fz, cc):
    def first(argv):
        try:
            r = run(argv, check=False)
            return ((r.stdout or "") + (r.stderr or "")).strip().splitlines()[0]
        except Exception as e:  # noqa: BLE001 - a version line is best effort
            return f"? ({e})"

    def deb(pkg):
        r = run(["dpkg-query", "-W", "-f", "${Version}", pkg], check=False)
        return r.stdout.strip() or "?"

    cpu = "?"
    for line in run(["lscpu"]).stdout.splitlines():
        if line.startswith("Model name:"):
            cpu = line.split(":", 1)[1].strip()
    commit = run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], check=False).stdout.strip()
    dirty = run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"], check=False).stdout.strip()
    built = f"commit {commit}{' + local changes' if dirty else ''}"
    if os.path.abspath(fz) != os.path.join(ROOT, ".build", "release", "forcezoom"):
        built = f"binary {fz} (not this checkout's build)"
    return [
        ("CPU", f"{cpu}, {os.cpu_count()} logical CPUs (lscpu model name)"),
        ("Kernel", os.uname().release),
        ("forcezoom", f"{first([fz, '--version'])}, {built}, `swift build -c release --static-swift-stdlib`"),
        ("Swift", first(["swift", "--version"])),
        ("libjpeg-turbo", deb("libjpeg62-turbo")),
        ("libpng", deb("libpng16-16")),
        ("zlib", deb("zlib1g")),
        ("vips", f"{first(['vips', '--version'])} (libvips42 {deb('libvips42')})"),
        ("ImageMagick", first([IM_CONVERT, "-version"]).replace("Version: ", "")),
        ("GraphicsMagick", first(["gm", "-version"])),
        ("hyperfine", first(["hyperfine", "--version"])),
        ("floor.c compiler", first([cc, "--version"])),
    ]


def cpu_busy(seconds=3.0):
    """The share of all CPUs busy over `seconds` while this bench is idle: other people's work."""
    def sample():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v), v[3] + v[4]  # total, idle + iowait
    t0, i0 = sample()
    time.sleep(seconds)
    t1, i1 = sample()
    return 0.0 if t1 == t0 else 1.0 - (i1 - i0) / (t1 - t0)


class OthersMeter:
    """How much of the CPUs other processes used while a task was timed: the system's busy CPU
    time (/proc/stat, steal included) minus this bench's own children's CPU time (getrusage)."""

    def __enter__(self):
        self.t0, self.b0, self.c0 = time.time(), self._busy(), self._children()
        return self

    def __exit__(self, *exc):
        wall = time.time() - self.t0
        others = (self._busy() - self.b0) - (self._children() - self.c0)
        self.share = max(0.0, others) / (wall * (os.cpu_count() or 1)) if wall > 0 else 0.0
        return False

    @staticmethod
    def _busy():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return (sum(v[:8]) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")  # user..steal, minus idle and iowait

    @staticmethod
    def _children():
        import resource
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime


def wait_quiet(deadline, label):
    """Waits (until deadline) for the other processes' CPU use to drop under 15%; returns the last sample."""
    busy = cpu_busy()
    while busy >= 0.15 and time.time() < deadline:
        log(f"{label}: other processes use {busy:.0%} of the CPUs: waiting")
        time.sleep(15)
        busy = cpu_busy()
    return busy


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def main():
    ap = argparse.ArgumentParser(description="forcezoom benchmark (make bench)")
    ap.add_argument("--fz", default=os.path.join(ROOT, ".build", "release", "forcezoom"))
    ap.add_argument("--out", default=os.path.join(ROOT, "BENCHMARKS.md"))
    ap.add_argument("--no-write", action="store_true", help="print only, leave BENCHMARKS.md alone")
    ap.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS", "10")))
    ap.add_argument("--warmup", type=int, default=int(os.environ.get("BENCH_WARMUP", "2")))
    ap.add_argument("--batch-runs", type=int, default=int(os.environ.get("BENCH_BATCH_RUNS", "10")))
    ap.add_argument("--slow-runs", type=int, default=int(os.environ.get("BENCH_SLOW_RUNS", "3")),
                    help="runs for the batch's mogrify rows (each run takes 15-30 s)")
    ap.add_argument("--tasks", default=os.environ.get(
        "BENCH_TASKS", "1,1p,2,3,4,14,5,6,8,9,10,11,12,13,mx,r1,r2,jxl,jxlt,g12,g48,g200,gt12,gt200,gf12,tt200,tp12,p9,p9t,hp,hpt,l20,lh12,gm,gmt,png,at20,ath12,rg,an,anw,v4k,v1080,vb20,h52"))
    ap.add_argument("--quiet-wait", type=int, default=int(os.environ.get("BENCH_QUIET_WAIT", "0")),
                    help="wait up to this many seconds, at the start and before each task, for other processes "
                         "to use under 15%% of the CPUs (sampled over 3 s while the bench is idle)")
    a = ap.parse_args()
    fz = os.path.abspath(a.fz)
    if not os.access(fz, os.X_OK):
        sys.exit(f"bench: {fz} is missing; run `make release`")
    for tool in ["vips", "vipsthumbnail", "vipsheader", IM_CONVERT, IM_MOGRIFY, IM_COMPARE, "gm", "hyperfine", "jpegtran", GNU_TIME,
                 "pkg-config", "heif-enc", "cwebp"]:
        if not shutil.which(tool):
            sys.exit(f"bench: {tool} is missing; run `make bench-deps`")
    wanted = a.tasks.split(",")

    busy_start = wait_quiet(time.time() + a.quiet_wait, "start")
    load_start = loadavg()
    if busy_start >= 0.15:
        log(f"warning: other processes use {busy_start:.0%} of the CPUs; timings will be noisy (ratios are still side by side)")
    started = time.time()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")

    make_data()
    cc = build_floor()
    subs = fz_subcommands(fz)
    log(f"forcezoom subcommands: {', '.join(sorted(subs))}")
    missing = [s for s in ("crop", "fit", "thumb") if s not in subs]
    if missing:
        sys.exit(f"bench: {fz} has no {', '.join(missing)} subcommand; build forcezoom from this checkout (make release)")

    large = os.path.join(PHOTOS, "large.jpg")
    tasks = []
    if "1" in wanted:
        tasks.append(task_crop("1", fz, subs, large, (3008, 1695), "large.jpg (6016x3391, 20.4 MP baseline JPEG 4:2:2)", True,
                               "Crop of a 20 MP JPEG"))
    if "1p" in wanted:
        tasks.append(task_crop("1p", fz, subs, os.path.join(DATA, "large-progressive.jpg"), (3008, 1695),
                               "large-progressive.jpg (large.jpg made progressive by jpegtran, same pixels)", True,
                               "Crop of a 20 MP progressive JPEG"))
    if "2" in wanted:
        tasks.append(task_crop("2", fz, subs, os.path.join(DATA, "png12.png"), (2000, 1500),
                               "png12.png (4000x3000, 12.0 MP RGB PNG)", False, "Crop of a 12 MP PNG"))
    if "3" in wanted:
        tasks.append(task_fit("3", fz, subs, large))
    if "4" in wanted:
        tasks.append(task_thumb("4", fz, subs, large))
    if "14" in wanted:
        tasks.append(task_thumb_srgb("14", fz, subs, large))
    if "5" in wanted:
        tasks.append(task_batch("5", fz, subs, a.slow_runs))
    if "6" in wanted:
        tasks.append(task_encode("6", fz, large))
    if "8" in wanted:
        tasks.append(task_frame("8", fz, subs, large))
    if "9" in wanted:
        tasks.append(task_transform("9", fz, subs, large, a.slow_runs))
    if any(t in wanted for t in ("10", "11", "12", "13")):
        fdir = make_formats()
        if "10" in wanted:
            tasks.append(task_heic_thumb("10", fz, subs, fdir))
        if "11" in wanted:
            tasks.append(task_crop("11", fz, subs, os.path.join(fdir, "heic12.heic"), (2000, 1500),
                                   "heic12.heic (4000x3000 HEVC, heif-enc -q 50 of png12.png)", None, "Crop of a 12 MP HEIC"))
        if "12" in wanted:
            tasks.append(task_crop("12", fz, subs, os.path.join(fdir, "webp12.webp"), (2000, 1500),
                                   "webp12.webp (4000x3000 lossy WebP, cwebp -q 80 of png12.png)", None, "Crop of a 12 MP WebP"))
        if "13" in wanted:
            tasks.append(task_mixed_batch("13", fz, subs, fdir))
    if "mx" in wanted:
        tasks.append(task_messy("mx", fz, subs, make_messy()))
    if any(t in wanted for t in ("r1", "r2")):
        dng = make_raw()
        if "r1" in wanted:
            tasks.append(task_raw_thumb("r1", fz, subs, dng))
        if "r2" in wanted:
            tasks.append(task_raw_develop("r2", fz, subs, dng))
    if any(t in wanted for t in ("jxl", "jxlt")) and shutil.which("cjxl") and shutil.which("djxl"):
        jxl12 = make_jxl()
        for tid in ("jxl", "jxlt"):
            if tid in wanted:
                tasks.append(task_jxl(tid, fz, subs, jxl12, tid == "jxlt"))
    grids = {"g12": ("grid-12mp.heic", "12 MP"), "g48": ("grid-48mp.heic", "48 MP"), "g200": ("grid-200mp.heic", "200 MP")}
    for tid, (name, label) in grids.items():
        if tid in wanted and os.path.exists(os.path.join(GRIDS, name)):
            tasks.append(task_grid_crop(tid, fz, subs, name, label))
    for tid, (name, label) in {"gt12": grids["g12"], "gt200": grids["g200"]}.items():
        if tid in wanted and os.path.exists(os.path.join(GRIDS, name)):
            tasks.append(task_grid_thumb(tid, fz, subs, name, label))
    if "gf12" in wanted and os.path.exists(os.path.join(GRIDS, grids["g12"][0])):
        tasks.append(task_grid_fit("gf12", fz, subs, *grids["g12"]))
    if "tt200" in wanted or "tp12" in wanted:
        tdir = make_tiffs()
        if "tt200" in wanted:
            tasks.append(task_tiff_crop("tt200", fz, subs, tdir))
        if "tp12" in wanted:
            tasks.append(task_tiff_thumb("tp12", fz, subs, tdir))
    if "p9" in wanted or "p9t" in wanted:
        png9 = make_png9()
        if "p9" in wanted:
            tasks.append(task_png9_crop("p9", fz, subs, png9))
        if "p9t" in wanted:
            tasks.append(task_png9_thumb("p9t", fz, subs, png9))
    phone = phone_heic()
    for tid in ("hp", "hpt"):
        if tid in wanted and phone:
            tasks.append(task_phone_heic(tid, fz, subs, phone))
    if "l20" in wanted:
        tasks.append(task_ladder("l20", fz, subs, large, "20 MP JPEG"))
    for tid in ("gm", "gmt"):
        if tid in wanted and os.path.exists(ULTRA_HDR):
            tasks.append(task_gain_map(tid, fz, subs, ULTRA_HDR))
    if "lh12" in wanted and phone:
        tasks.append(task_ladder("lh12", fz, subs, phone, "12 MP iPhone HEIC grid"))
    tasks += bench_regions.region_tasks(sys.modules[__name__], wanted, fz, large, phone)
    tasks += bench_animations.animation_tasks(sys.modules[__name__], wanted, fz)
    if shutil.which("ffmpegthumbnailer") and shutil.which("ffmpeg"):
        tasks += bench_video.video_tasks(sys.modules[__name__], wanted, fz)
    for task in tasks:
        for t in task.tools:
            if not t.ok:
                log(f"task {task.id}: {t.name}: {t.skip}")
        task.busy = wait_quiet(time.time() + a.quiet_wait, f"task {task.id}")
        batch = task.images is not None
        with OthersMeter() as meter:
            hyperfine(task.id, task.tools, a.batch_runs if batch else a.runs, 1 if batch else a.warmup)
        task.others = meter.share
        log(f"task {task.id}: other processes used {meter.share:.0%} of the CPUs while it was timed")
        if not batch:  # the issue asks peak RSS for tasks 1, 3, 4; a batch run costs up to 30 s more per tool
            peak_rss(task.tools, 3)
    png = None
    if "png" in wanted:
        busy = wait_quiet(time.time() + a.quiet_wait, "png settings")
        with OthersMeter() as meter:
            png = png_settings(fz, subs, max(5, a.runs // 2))
        if png:
            png["busy"], png["others"] = busy, meter.share
    load_end = loadavg()
    elapsed = time.time() - started

    doc = []
    doc.append("# Benchmarks\n")
    doc.append("Made by `make bench` (`bench/bench.py`, `bench/floor.c`): every tool timed side by side in one "
               "hyperfine invocation per task, on the same machine and files. Ratios matter more than "
               "milliseconds: \"vs forcezoom\" is the tool's median over forcezoom's (above 1: forcezoom is faster). "
               "Times are whole processes (start-up, decode, work, PNG encode, exit), each tool at its default "
               "settings and threads. Outputs were checked before timing: crops against the reference pixels "
               f"(ImageMagick `compare -metric PAE`, at most {CROP_MAX_PAE} levels), resized outputs for the same picture "
               f"(`compare -metric PSNR` at least {RESIZE_MIN_PSNR:.0f} dB against forcezoom's, or vips's when "
               "forcezoom's is missing). The floor rows are `bench/floor.c`: a C process that only decodes "
               "(libjpeg/libpng, no PNG encode), the least any tool here can do.\n")
    doc.append(f"- Date: {when}; took {elapsed / 60:.1f} min; other processes used {busy_start:.0%} of the CPUs at the "
               f"start (each task says the same just before it was timed); 1-minute load average {load_start:.2f} at the start, "
               f"{load_end:.2f} at the end (the bench's own load included).")
    doc.append(f"- hyperfine --shell=none, {a.warmup} warm-up + {a.runs} runs per command "
               f"(batch: 1 warm-up + {a.batch_runs} runs, mogrify {a.slow_runs} runs); peak RSS: `/usr/bin/time -f %M`, "
               "median of 3 runs, the largest process of a pipeline (not measured for the batch).")
    for k, v in versions(fz, cc):
        doc.append(f"- {k}: {v}")
    doc.append("")
    doc.append("## Images\n")
    doc.append("- `large.jpg`: 6016x3391 (20.4 MP) real photo, baseline JPEG 4:2:2 (`make photos`, Fixtures/SOURCES.md).")
    doc.append("- `large-progressive.jpg`: `jpegtran -progressive -copy all large.jpg` (lossless: the same pixels).")
    doc.append("- `png12.png`: 4000x3000 (12.0 MP) 8-bit RGB PNG: `vips crop large.jpg png12.png[compression=6,strip] "
               "1008 195 4000 3000`, the centre of the photo at 1:1 (no resampling).")
    if os.path.exists(os.path.join(DATA, "batch200", "MANIFEST.tsv")):
        files, mps = batch_files()
        doc.append(f"- `batch200/`: {len(files)} files, {min(mps):.1f}-{max(mps):.1f} MP, {sum(mps):.0f} MP in all "
                   f"(manifest sha256 {batch_digest()}…): the 14 photos of `.cache/photos/batch/` as shipped, plus 186 made "
                   "from them with vips: sizes spread over 1-20 MP by a golden-ratio sequence, capped at 92% of the source "
                   "(never upscaled); half `vips thumbnail W --height H --crop centre` (shrink to cover, cut the centre), "
                   "half `vips crop` of W x H at a deterministic offset (1:1); aspect cycling 4:3, 3:2, 16:9, 1:1, 3:4, 2:3 "
                   "and the source's; JPEG Q=85 (every 3rd progressive), every 19th a PNG of at most 4 MP. "
                   "Recipe: `batch_plan()` in bench/bench.py; each file's size, sha256 and command: "
                   "`.cache/bench/data/batch200/MANIFEST.tsv`.")
    doc.append("")
    doc.append("## Results\n")
    for task in tasks:
        doc.append(table(task))
    doc.append(png_table(png) if "png" in wanted else "")
    doc.append(targets(tasks, png))
    if "h52" in wanted:
        doc.append(bench_http.section(fz, max(5, a.runs // 2)))
        doc.append(bench_s3.section(fz, os.path.join(DATA, "batch200"), max(3, a.slow_runs)))
    notes = os.path.join(ROOT, "bench", "notes.md")
    if os.path.exists(notes):
        doc.append(open(notes, encoding="utf-8").read())
    text = "\n".join(doc)
    print(text)
    if not a.no_write:
        with open(a.out, "w") as f:
            f.write(text)
        log(f"wrote {a.out}")


if __name__ == "__main__":
    main()
