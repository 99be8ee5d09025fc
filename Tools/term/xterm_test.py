#!/usr/bin/python3
"""`make term-test`: forcezoom in a real terminal. Xvfb runs xterm as a VT340 with 256 colour
registers; inside it `forcezoom crop ... --show` (graphics auto: xterm's environment names no
protocol, so the probe runs and xterm's DA1 answer, which has 4, picks sixel) prints the
peek; `xwd` takes a screenshot, netpbm's xwdtopnm converts it, and Pillow looks for the peek
written to out.png: every one of its pixels must be on the screen, in one place, exactly
(its colours are on sixel's percent levels, so the palette carries them unchanged). Then
`forcezoom peek` runs in the same kind of xterm: after l and s, the peek it saved must be on
the screen while it runs, and q must end it (driven by keys through Tools/term/pty_run.py --relay). Last,
peek on a copy carrying one MWG face region: r jumps to it and s saves it, which must be the
pixels `crop --at region:Target` gives, and on the screen. Needs xvfb, xterm, x11-apps, netpbm (make term-test installs them). FZ=path/to/forcezoom.
"""
import os, re
import shutil
import subprocess
import sys
import tempfile
import time

from PIL import Image

FZ = os.path.abspath(os.environ.get("FZ", ".build/debug/forcezoom"))


def level(p):
    return (p * 255 + 50) // 100


# The percentages that come back as the same 8-bit value from sixel2png ((p*255+50)/100)
# and from xterm (p*65535/100, the top byte): the source uses only these, so the pixels on
# the screen are exactly the written PNG's.
LEVELS = [p for p in range(101) if level(p) == (p * 65535 // 100) >> 8]


def make_input(path):
    # 24x24 tiles of colours on percent levels, no two neighbours alike: a peek shows a few.
    im = Image.new("RGB", (960, 720))
    px = im.load()
    for y in range(720):
        for x in range(960):
            tx, ty = x // 24, y // 24
            n = len(LEVELS)
            px[x, y] = (level(LEVELS[(tx * 17) % n]), level(LEVELS[(ty * 29) % n]), level(LEVELS[((tx + ty) * 11) % n]))
    im.save(path)


def with_region(src, dst):
    # The same picture with one MWG face region, "Target", centred at (25%, 70%), 10% a side.
    from PIL import PngImagePlugin
    xmp = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
           '<rdf:Description xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/" '
           'xmlns:stDim="http://ns.adobe.com/xap/1.0/sType/Dimensions#" xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#">'
           '<mwg-rs:Regions rdf:parseType="Resource"><mwg-rs:AppliedToDimensions stDim:w="960" stDim:h="720" stDim:unit="pixel"/>'
           '<mwg-rs:RegionList><rdf:Bag><rdf:li><rdf:Description mwg-rs:Name="Target" mwg-rs:Type="Face">'
           '<mwg-rs:Area stArea:x="0.25" stArea:y="0.7" stArea:w="0.1" stArea:h="0.1" stArea:unit="normalized"/>'
           '</rdf:Description></rdf:li></rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions></rdf:Description></rdf:RDF></x:xmpmeta>')
    info = PngImagePlugin.PngInfo()
    info.add_itxt("XML:com.adobe.xmp", xmp)
    Image.open(src).save(dst, pnginfo=info)


def find(screen, peek):
    """Where every row of `peek` appears in `screen`, in place; None if it does not."""
    sw, sh = screen.size
    pw, ph = peek.size
    s, p = screen.tobytes(), peek.tobytes()
    first = p[: pw * 3]
    for y in range(sh - ph + 1):
        row = s[y * sw * 3 : (y + 1) * sw * 3]
        start = row.find(first)
        while start >= 0:
            if start % 3 == 0:
                x = start // 3
                if all(s[((y + r) * sw + x) * 3 : ((y + r) * sw + x + pw) * 3] == p[r * pw * 3 : (r + 1) * pw * 3] for r in range(ph)):
                    return x, y
            start = row.find(first, start + 1)
    return None


def screenshot(display, folder, name):
    xwd = os.path.join(folder, name + ".xwd")
    pnm = os.path.join(folder, name + ".pnm")
    with open(xwd, "wb") as f:
        subprocess.run(["xwd", "-root", "-silent", "-display", display], stdout=f, check=True)
    with open(pnm, "wb") as f:
        subprocess.run(["xwdtopnm"], stdin=open(xwd, "rb"), stdout=f, stderr=subprocess.DEVNULL, check=True)
    return Image.open(pnm).convert("RGB")


def xterm(display, command, env):
    return subprocess.Popen(
        ["xterm", "-ti", "vt340", "-xrm", "XTerm*numColorRegisters: 256", "-geometry", "120x40+0+0",
         "-fa", "", "-fn", "fixed", "-e", "sh", "-c", command],
        env=dict(env, DISPLAY=display), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_for(predicate, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def main():
    for tool in ["Xvfb", "xterm", "xwd", "xwdtopnm"]:
        if shutil.which(tool) is None:
            sys.exit(f"term-test: {tool} is missing (make term-test installs xvfb xterm x11-apps netpbm)")
    started = time.monotonic()
    folder = tempfile.mkdtemp(prefix="fz-term-")
    source = os.path.join(folder, "in.png")
    make_input(source)
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            pass_fds=[write_fd], stderr=subprocess.DEVNULL)
    os.close(write_fd)
    number = os.read(read_fd, 16).decode().strip()
    display = ":" + number
    # The session's own terminal must not decide: xterm sets TERM and XTERM_VERSION itself.
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": folder, "LANG": "C.UTF-8"}
    failures = []
    try:
        # 1. crop --show, graphics auto.
        out = os.path.join(folder, "out.png")
        done = os.path.join(folder, "done")
        cmd = f"cd {folder} && '{FZ}' crop in.png --at 200,150 --size 96 --show -o out.png 2> err.txt; echo $? > done; sleep 60"
        term = xterm(display, cmd, env)
        if not wait_for(lambda: os.path.exists(done) and os.path.getsize(done) > 0, 30):
            failures.append("crop --show did not finish in xterm")
        else:
            time.sleep(0.5)
            status = open(done).read().strip()
            if status != "0":
                failures.append(f"crop --show exit {status}: {open(os.path.join(folder, 'err.txt')).read()}")
            shot = screenshot(display, folder, "crop")
            where = find(shot, Image.open(out).convert("RGB"))
            print(f"term-test: crop --show peek {'found at ' + str(where) if where else 'NOT found'} on the xterm screen")
            if where is None:
                failures.append("the peek's pixels are not on the screen")
        term.kill()
        term.wait()
        # 2. peek in xterm, driven through Tools/term/pty_run.py --relay (a pty inside xterm's
        # that copies the picture to it and types the keys): move one cell right, save, and
        # while it is still running the screen must hold the peek it saved. A saved peek has
        # crop's side (390 by default), which the pane shows scaled: --size 348, the pane's side
        # in this xterm's fixed geometry and font, makes the pane show the saved pixels 1:1 (the
        # status line says "shown at N" where they differ, and the failure below prints it).
        saved = os.path.join(folder, "in.peek-1.png")
        relay = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pty_run.py")
        cmd = (f"cd {folder} && python3 '{relay}' --relay --capture cap --delay 1.5 --wait-for '\\x1b[?25l' "
               f"--keys l --keys s --keys '' --keys '' --keys q -- '{FZ}' peek in.png --at 480,360 --size 348 --graphics sixel "
               f"2> relay.txt; echo $? > pdone; sleep 60")
        term = xterm(display, cmd, env)
        if not wait_for(lambda: os.path.exists(saved), 30):
            failures.append("peek saved nothing in xterm")
        else:
            time.sleep(0.5)
            shot = screenshot(display, folder, "peek")
            where = find(shot, Image.open(saved).convert("RGB"))
            print(f"term-test: peek's saved 1:1 pane {'found at ' + str(where) if where else 'NOT found'} on the xterm screen")
            if where is None:
                failures.append("peek's pane is not on the screen")
                cap = open(os.path.join(folder, "cap"), "rb").read()
                print("term-test: the status line said", re.findall(rb"shown at [0-9]+", cap)[:1] or "no 'shown at'")
        if not wait_for(lambda: os.path.exists(os.path.join(folder, "pdone")) and os.path.getsize(os.path.join(folder, "pdone")) > 0, 20):
            failures.append("peek did not leave on q")
        term.kill()
        term.wait()
        # 3. peek's r: the jump to the file's one region, saved, is crop --at region:Target.
        with_region(source, os.path.join(folder, "faces.png"))
        saved = os.path.join(folder, "faces.peek-1.png")
        reference = os.path.join(folder, "faces-crop.png")
        subprocess.run([FZ, "crop", os.path.join(folder, "faces.png"), "--at", "region:Target", "--size", "348",
                        "-o", reference], check=True)
        cmd = (f"cd {folder} && python3 '{relay}' --relay --capture rcap --delay 1.5 --wait-for '\\x1b[?25l' "
               f"--keys r --keys s --keys '' --keys '' --keys q -- '{FZ}' peek faces.png --size 348 --graphics sixel "
               f"2> rrelay.txt; echo $? > rdone; sleep 60")
        term = xterm(display, cmd, env)
        if not wait_for(lambda: os.path.exists(saved), 30):
            failures.append("peek saved nothing after r in xterm")
        else:
            time.sleep(0.5)
            shot = screenshot(display, folder, "region")
            peek = Image.open(saved).convert("RGB")
            same = peek.tobytes() == Image.open(reference).convert("RGB").tobytes()
            where = find(shot, peek)
            print(f"term-test: peek after r {'is' if same else 'is NOT'} crop --at region:Target; "
                  f"{'found at ' + str(where) if where else 'NOT found'} on the xterm screen")
            if not same:
                failures.append("peek's r did not save crop --at region:Target")
            if where is None:
                failures.append("peek's region pane is not on the screen")
        if not wait_for(lambda: os.path.exists(os.path.join(folder, "rdone")) and os.path.getsize(os.path.join(folder, "rdone")) > 0, 20):
            failures.append("peek did not leave on q after r")
        else:
            # The relay writes its capture when the command ends.
            capture = os.path.join(folder, "rcap")
            if not os.path.exists(capture) or b"region 1/1 Target" not in open(capture, "rb").read():
                failures.append("the status line did not name the region")
        term.kill()
        term.wait()
    finally:
        xvfb.kill()
        xvfb.wait()
    print(f"term-test: {time.monotonic() - started:.1f} s")
    if failures:
        sys.exit(f"term-test: FAILED: {'; '.join(failures)} (screenshots in {folder})")
    shutil.rmtree(folder, ignore_errors=True)
    print("term-test: passed")


if __name__ == "__main__":
    main()
