#!/usr/bin/env python3
"""Issue 52's bucket rows: `thumb` of 200 JPEGs (1-20 MP, the JPEGs of bench.py's batch200 plus
its 10 PNGs as JPEGs) under an s3:// prefix to an s3:// prefix on a local S3 server (moto in
server mode with SigV4 checked, Tools/s3/moto_server.py, 127.0.0.1), against
  - the same batch from and to disk (target: the bucket run >= 0.8x the disk run's speed, i.e.
    its time at most 1.25x), and
  - the peers' way (libvips reads no bucket; its answer is to stage the files): `aws s3 cp
    --recursive` the prefix down (the AWS CLI from PyPI), `vipsthumbnail -s 256` under
    `xargs -P2 -n5` as in bench.py's batch rows, `aws s3 cp --recursive` the thumbnails up
    (target: forcezoom's bucket run >= 2x faster); and, for what the staging alone costs,
    the same with forcezoom's own disk thumb in the middle (no target).
A store is another machine: moto runs pinned to CPU 1 and everything timed to CPU 0
(taskset), so the server's Python (about 5 ms of CPU a request) does not take the client's
cores, and the disk run gets the same single core.
bench.py calls section() (`make bench`); on its own:
    python3 bench/bench_s3.py --fz .build/release/forcezoom [--runs 3]
Times are medians of --runs rounds after a warm-up round, the commands taking turns, every run to a fresh prefix or
folder; the 1-minute load average before and after is printed (a shared machine)."""

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = "/usr/bin/python3"  # the one with moto and boto3 (make deps)
BUCKET = "bench"
# The store on its own core, the client on the other (see above); none where taskset is missing.
PIN_STORE = ["taskset", "-c", "1"] if shutil.which("taskset") and os.cpu_count() >= 2 else []
PIN_CLIENT = ["taskset", "-c", "0"] if PIN_STORE else []


def jpegs(batch_dir):
    """200 JPEG paths: batch200's JPEGs, and its PNGs re-encoded as JPEG (Q85) once."""
    own = os.path.join(ROOT, ".cache", "s3-bench")
    os.makedirs(own, exist_ok=True)
    names = sorted(os.listdir(batch_dir))
    out = [os.path.join(batch_dir, n) for n in names if n.endswith(".jpg")]
    for n in names:
        if n.endswith(".png"):
            dst = os.path.join(own, n[:-4] + ".jpg")
            if not os.path.exists(dst):
                subprocess.run(["vips", "copy", os.path.join(batch_dir, n), dst + "[Q=85,strip]"], check=True)
            out.append(dst)
    return out[:200]


class Moto:
    """moto_server.py on a free port of 127.0.0.1, stopped with stop() (or when we exit)."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="fz-s3-bench-")
        state = os.path.join(self.dir, "state.json")
        self.log = open(os.path.join(self.dir, "log.txt"), "w")
        self.proc = subprocess.Popen(PIN_STORE + [PYTHON, os.path.join(ROOT, "Tools", "s3", "moto_server.py"), state, str(os.getpid())],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(600):
            if os.path.exists(state):
                break
            time.sleep(0.1)
        with open(state) as f:
            s = json.load(f)
        self.endpoint = f"http://127.0.0.1:{s['port']}"
        self.env = dict(os.environ, AWS_ACCESS_KEY_ID=s["key"], AWS_SECRET_ACCESS_KEY=s["secret"],
                        AWS_REGION="us-east-1", AWS_DEFAULT_REGION="us-east-1", AWS_ENDPOINT_URL_S3=self.endpoint,
                        AWS_ENDPOINT_URL=self.endpoint, AWS_CONFIG_FILE="/dev/null",
                        AWS_SHARED_CREDENTIALS_FILE="/dev/null")
        for _ in range(600):
            if subprocess.run(["curl", "-s", "-o", "/dev/null", "--max-time", "2", self.endpoint + "/moto-api/"]).returncode == 0:
                break
            time.sleep(0.1)

    def client(self):
        import boto3
        from botocore.config import Config
        return boto3.client("s3", endpoint_url=self.endpoint, region_name="us-east-1",
                            aws_access_key_id=self.env["AWS_ACCESS_KEY_ID"],
                            aws_secret_access_key=self.env["AWS_SECRET_ACCESS_KEY"],
                            config=Config(s3={"addressing_style": "path"}))

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def once(argv, env):
    """Seconds of one run of argv (a list, or a shell line), pinned to the client's CPU."""
    argv = " ".join(PIN_CLIENT) + " sh -c " + shlex.quote(argv) if isinstance(argv, str) else PIN_CLIENT + argv
    t = time.perf_counter()
    r = subprocess.run(argv, env=env, capture_output=True, text=True, shell=isinstance(argv, str))
    took = time.perf_counter() - t
    if r.returncode != 0:
        raise RuntimeError(f"{argv if isinstance(argv, str) else ' '.join(argv)}: exit {r.returncode}: {r.stderr[-400:]}")
    return took


def timed(commands, runs, env):
    """Median seconds of each of commands ({label: (make_argv, prepare)}, make_argv(i) a fresh
    target per run) over runs rounds after a warm-up round, the commands taking turns within
    each round, so a machine that drifts (this VM's speed varies by 20% from minute to minute)
    touches every column alike."""
    out = {label: [] for label in commands}
    for i in range(runs + 1):
        for label, (make_argv, prepare) in commands.items():
            if prepare:
                prepare(i)
            took = once(make_argv(i), env)
            if i > 0:
                out[label].append(took)
    return {label: statistics.median(v) for label, v in out.items()}


def count(client, prefix):
    pages = client.get_paginator("list_objects_v2").paginate(Bucket=BUCKET, Prefix=prefix)
    return sum(len(p.get("Contents", [])) for p in pages)


def measure(fz, files, runs):
    moto = Moto()
    work = tempfile.mkdtemp(prefix="fz-s3-bench-out-")
    try:
        s3 = moto.client()
        s3.create_bucket(Bucket=BUCKET)
        src = os.path.join(work, "in")
        os.makedirs(src)
        for p in files:  # one flat folder on disk and one prefix in the bucket, the same names
            name = os.path.basename(p)
            os.symlink(p, os.path.join(src, name))
            s3.upload_file(p, BUCKET, "in/" + name)
        thumb = ["thumb", "--size", "256", "--quiet"]
        fresh = lambda d: (lambda i: shutil.rmtree(os.path.join(work, f"{d}{i}"), ignore_errors=True))
        commands = {
            "disk": (lambda i: [fz] + thumb + [src, "--out", os.path.join(work, f"disk{i}")], fresh("disk")),
            "bucket": (lambda i: [fz] + thumb + [f"s3://{BUCKET}/in/", "--out", f"s3://{BUCKET}/fz{i}/"], None),
        }
        aws = shutil.which("aws") or next(
            (p for p in [os.path.join(ROOT, ".cache", "awscli", "bin", "aws")] if os.access(p, os.X_OK)), None)
        if aws:
            def staged(middle, name):
                def command(i):
                    d = os.path.join(work, f"{name}{i}")
                    return (f"set -e; mkdir -p {d}/in {d}/out; {aws} s3 cp --quiet --recursive s3://{BUCKET}/in/ {d}/in/; "
                            f"{middle(d)}; {aws} s3 cp --quiet --recursive {d}/out/ s3://{BUCKET}/{name}{i}/")
                return command
            fzmid = lambda d: f"{fz} {' '.join(thumb)} {d}/in --out {d}/out"
            vipsmid = lambda d: f"ls {d}/in/* | xargs -d '\\n' -P2 -n5 vipsthumbnail -s 256 -o {d}/out/%s.jpg"
            commands["vips"] = (staged(vipsmid, "vips"), fresh("vips"))
            commands["cli"] = (staged(fzmid, "aws"), fresh("aws"))
        t = timed(commands, runs, moto.env)
        disk, bucket, vips, cli = t["disk"], t["bucket"], t.get("vips"), t.get("cli")
        made = count(s3, f"fz{runs}/")
        vips_made = count(s3, f"vips{runs}/") if aws else 0
        cli_made = count(s3, f"aws{runs}/") if aws else 0
        return {"disk": disk, "bucket": bucket, "cli": cli, "made": made, "cli_made": cli_made, "n": len(files),
                "vips": vips, "vips_made": vips_made,
                "mb": sum(os.path.getsize(p) for p in files) / 1e6,
                "aws": subprocess.run([aws, "--version"], capture_output=True, text=True).stdout.strip() if aws else None}
    finally:
        moto.stop()
        shutil.rmtree(work, ignore_errors=True)


def section(fz, batch_dir, runs=3):
    """The markdown section of BENCHMARKS.md (bench.py appends it)."""
    files = jpegs(batch_dir)
    load = os.getloadavg()[0]
    r = measure(fz, files, runs)
    speed = r["disk"] / r["bucket"]
    doc = ["## A batch from a bucket to a bucket (issue 52)\n",
           f"`forcezoom thumb --size 256` of {r['n']} JPEGs ({r['mb']:.0f} MB, 1-20 MP) under `s3://{BUCKET}/in/` to "
           f"`s3://{BUCKET}/fzN/` on moto in server mode (SigV4 checked) on 127.0.0.1, against the same batch from and to "
           "disk, and against the peers' staging with the AWS CLI (`aws s3 cp --recursive` down, `vipsthumbnail -s 256` "
           f"under `xargs -P2 -n5`, `aws s3 cp --recursive` up; {r['aws'] or 'not installed'}), and the same staging around "
           f"forcezoom's disk thumb. moto pinned to CPU 1, the timed commands to CPU 0 ({'taskset' if PIN_STORE else 'not pinned: no taskset'}): "
           f"a store is another machine. Medians of {runs} rounds after a warm-up round, the four taking turns in each, every run to a fresh prefix; 1-minute load "
           f"average {load:.2f} before, {os.getloadavg()[0]:.2f} after.\n",
           f"- disk {r['disk']:.2f} s, bucket {r['bucket']:.2f} s ({r['made']} objects written)"
           + (f"; AWS CLI + vipsthumbnail {r['vips']:.2f} s ({r['vips_made']} objects), AWS CLI + forcezoom "
              f"{r['cli']:.2f} s ({r['cli_made']} objects)." if r["cli"] else "."),
           "", "| Row | Target | Measured | Verdict |", "|---|---|---|---|",
           f"| h52. thumb of {r['n']} JPEGs s3:// to s3://: speed / the same from and to disk | >= 0.8x | {speed:.2f}x | "
           f"{'met' if speed >= 0.8 and r['made'] == r['n'] else 'MISSED'} |"]
    if r["cli"]:
        ratio = r["vips"] / r["bucket"]
        doc.append(f"| h52. the same, against AWS CLI download + vipsthumbnail + upload | >= 2x | {ratio:.2f}x | "
                   f"{'met' if ratio >= 2 and r['vips_made'] == r['n'] else 'MISSED'} |")
        doc.append(f"| h52. the same, against AWS CLI download + forcezoom thumb on disk + upload | - | "
                   f"{r['cli'] / r['bucket']:.2f}x | - |")
    return "\n".join(doc) + "\n"


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--fz", default=os.path.join(ROOT, ".build", "release", "forcezoom"))
    p.add_argument("--batch", default=os.path.join(ROOT, ".cache", "bench", "data", "batch200"))
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()
    sys.stdout.write(section(a.fz, a.batch, a.runs))
