#!/usr/bin/env python3
"""Issue 52's bench rows: a 400 px crop of a 200 MP tiled TIFF and of a 200 MP grid HEIC over
HTTP from a local nginx (Tools/http/local-nginx.sh, 127.0.0.1), against the same crop from disk
(target: at most 3x its time) and against `curl URL | vips crop stdin ...` (the peers' way:
libvips reads no URL, so the whole object comes down first). Bytes are nginx's count
($body_bytes_sent in its access log, one tag per run): the target is at most 2% of the file.

bench.py calls section() (`make bench`); on its own it measures only these rows:
    python3 bench/bench_http.py --fz .build/release/forcezoom [--runs 7]
Times are medians of --runs whole runs (after one warm-up each); the 1-minute load average
before and after is printed, since the machine is shared."""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def files():
    """The 200 MP files: bench.py's tiled200.tif / grid-200mp.heic when made, else this
    module's own copies in .cache/http-bench (made by make_files)."""
    own = os.path.join(ROOT, ".cache", "http-bench")
    tiff = [os.path.join(ROOT, ".cache", "bench", "data", "tiff", "tiled200.tif"), os.path.join(own, "tiled200.tif")]
    heic = [os.path.join(ROOT, ".cache", "heicgrid", "grid-200mp.heic"), os.path.join(own, "grid-200mp.heic")]
    pick = lambda c: next((p for p in c if os.path.exists(p)), None)
    return pick(tiff), pick(heic)


def make_files():
    """16000x12500 tiled TIFF (large.jpg replicated 3x4, 256x256 deflate tiles) and the
    16320x12240 grid HEIC of make-grids.sh --bench (32x24 tiles of 512x512), once."""
    own = os.path.join(ROOT, ".cache", "http-bench")
    os.makedirs(own, exist_ok=True)
    tiff, heic = files()
    if tiff is None:
        rep = os.path.join(own, "rep.v")
        subprocess.run(["vips", "replicate", os.path.join(ROOT, ".cache", "photos", "large.jpg"), rep, "3", "4"], check=True)
        subprocess.run(["vips", "crop", rep, os.path.join(own, "tiled200.tif[tile,tile-width=256,tile-height=256,compression=deflate]"),
                        "0", "0", "16000", "12500"], check=True)
        os.remove(rep)
    if heic is None:
        subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "Tools", "heicgrid", "heicgrid.py"), os.path.join(own, "grid-200mp.heic"),
                        "--grid", "32x24", "--tile", "512x512", "--size", "16320x12240", "--distinct", "8", "--quality", "60"],
                       check=True)
    return files()


def dims(path):
    out = subprocess.run(["vipsheader", "-f", "width", path], capture_output=True, text=True, check=True).stdout
    w = int(out)
    h = int(subprocess.run(["vipsheader", "-f", "height", path], capture_output=True, text=True, check=True).stdout)
    return w, h


class Server:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="fz-http-bench-")
        out = subprocess.run([os.path.join(ROOT, "Tools", "http", "local-nginx.sh"), "start", self.dir, str(os.getpid())],
                             capture_output=True, text=True, check=True).stdout
        ports = dict(kv.split("=") for kv in out.split())
        self.port = int(ports["http"])

    def serve(self, path):
        dest = os.path.join(self.dir, "root", os.path.basename(path))
        try:
            os.link(path, dest)
        except OSError:
            shutil.copyfile(path, dest)
        return os.path.basename(path)

    def url(self, name, tag):
        return f"http://127.0.0.1:{self.port}/img/{name}?t={tag}"

    def sent(self, tag):
        total = 0
        with open(os.path.join(self.dir, "access.log")) as f:
            for line in f:
                if f"t={tag} " in line or line.split(" ")[0].endswith(f"t={tag}"):
                    total += int(line.split(" ")[2])
        return total

    def stop(self):
        subprocess.run([os.path.join(ROOT, "Tools", "http", "local-nginx.sh"), "stop", self.dir])
        shutil.rmtree(self.dir, ignore_errors=True)


def timed(argv, runs, shell=False):
    subprocess.run(argv, shell=shell, check=True, capture_output=True)  # warm-up
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(argv, shell=shell, check=True, capture_output=True)
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def measure(fz, server, path, label, runs, work):
    name = server.serve(path)
    w, h = dims(path)
    cx, cy = w // 2, h // 2
    size = os.path.getsize(path)
    o = lambda n: os.path.join(work, n)
    disk = timed([fz, "crop", path, "--at", f"{cx},{cy}", "--size", "400", "-o", o("disk.png")], runs)
    slug = "".join(c if c.isalnum() else "-" for c in label)
    tag = f"{slug}-fz"
    url = server.url(name, tag)
    http = timed([fz, "crop", url, "--at", f"{cx},{cy}", "--size", "400", "-o", o("http.png")], runs)
    fz_bytes = server.sent(tag) / (runs + 1)
    same = open(o("disk.png"), "rb").read() == open(o("http.png"), "rb").read()
    vtag = f"{slug}-vips"
    pipe = (f"curl -sf '{server.url(name, vtag)}' | vips crop stdin {o('vips.png')} {cx - 200} {cy - 200} 400 400")
    vips = timed(pipe, max(1, runs // 2), shell=True)
    vips_bytes = server.sent(vtag) / (max(1, runs // 2) + 1)
    return {
        "label": label, "file": os.path.basename(path), "size": size, "dims": (w, h), "disk": disk, "http": http,
        "vips": vips, "fz_bytes": fz_bytes, "vips_bytes": vips_bytes, "same": same,
    }


def rows(results):
    lines = ["| Row | Target | Measured | Verdict |", "|---|---|---|---|"]
    for r in results:
        ratio = r["http"] / r["disk"]
        share = r["fz_bytes"] / r["size"]
        lines.append(f"| h52. 400 px crop of {r['label']} over HTTP: time / from disk | <= 3.0x | {ratio:.2f}x | "
                     f"{'met' if ratio <= 3 else 'MISSED'} |")
        lines.append(f"| h52. 400 px crop of {r['label']} over HTTP: bytes fetched / file | <= 2% | {share:.2%} "
                     f"({r['fz_bytes'] / 1e6:.2f} of {r['size'] / 1e6:.1f} MB) | {'met' if share <= 0.02 else 'MISSED'} |")
        lines.append(f"| h52. same crop, `curl URL \\| vips crop stdin`: its time / forcezoom's over HTTP | - | "
                     f"{r['vips'] / r['http']:.1f}x (fetched {r['vips_bytes'] / r['size']:.0%} of the file) | - |")
    return lines


def section(fz, runs=7):
    """The markdown section of BENCHMARKS.md (bench.py appends it)."""
    tiff, heic = make_files()
    server = Server()
    work = tempfile.mkdtemp(prefix="fz-http-out-")
    load = os.getloadavg()[0]
    try:
        results = [measure(fz, server, tiff, "a 200 MP tiled TIFF", runs, work),
                   measure(fz, server, heic, "a 200 MP grid HEIC", runs, work)]
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    doc = ["## URLs read by range (issue 52)\n",
           "A 400 px crop at the centre over HTTP from nginx on 127.0.0.1 (Tools/http/local-nginx.sh), from disk, and "
           "`curl URL | vips crop stdin` (libvips reads no URL: the whole object comes down). Bytes are nginx's "
           f"`$body_bytes_sent` per run. Medians of {runs} runs after a warm-up; 1-minute load average "
           f"{load:.2f} before, {os.getloadavg()[0]:.2f} after (a shared machine).\n"]
    for r in results:
        doc.append(f"- `{r['file']}`: {r['dims'][0]}x{r['dims'][1]}, {r['size'] / 1e6:.1f} MB; disk {r['disk'] * 1000:.0f} ms, "
                   f"HTTP {r['http'] * 1000:.0f} ms, curl | vips {r['vips'] * 1000:.0f} ms; the HTTP crop "
                   f"{'is' if r['same'] else 'is NOT'} byte-identical to the disk crop.")
    doc.append("")
    doc += rows(results)
    return "\n".join(doc) + "\n"


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--fz", default=os.path.join(ROOT, ".build", "release", "forcezoom"))
    p.add_argument("--runs", type=int, default=7)
    a = p.parse_args()
    sys.stdout.write(section(a.fz, a.runs))
