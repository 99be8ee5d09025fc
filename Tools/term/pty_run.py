#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal, as a fake terminal for forcezoom's tests.

It sets the window size, answers the probe forcezoom sends (the kitty graphics query,
XTVERSION, the cell size and DA1) the way the chosen terminal would, types keys once the
command has drawn, and records everything the command wrote. Prints one JSON object:
{"status": exit status or -signal, "seconds": run time, "keyLatencies": seconds from each key
to the first output after it}; the raw output goes to --capture.
Special keys: @resize (see --resize-to), @signal:N sends signal N to the command's children
(or the command), @modes records the terminal's echo and canonical flags at that moment
(in "modes" of the report, read on the terminal's slave side), @await:N:TEXT holds the
keys until TEXT (Python escapes) has been written N times.
--cell-reply answers the cell-size query (ESC [16t) with the given bytes.
--signal sends a signal in place of the last key, to the command's children when it has
some (the command is then a shell around forcezoom, e.g. `sh -c 'forcezoom peek ...; stty -a'`).

  --answer kitty      kitty OK, XTVERSION kitty, DA1 without sixel
  --answer sixel      no kitty answer, DA1 with 4 (sixel), XTVERSION XTerm
  --answer plain      no kitty answer, DA1 without 4
  --answer none       says nothing at all (the probe must time out)
"""
import argparse
import fcntl
import json
import os
import pty
import select
import signal
import struct
import sys
import termios
import time

p = argparse.ArgumentParser()
p.add_argument("--cols", type=int, default=80)
p.add_argument("--rows", type=int, default=24)
p.add_argument("--xpixel", type=int, default=0)
p.add_argument("--ypixel", type=int, default=0)
p.add_argument("--answer", choices=["kitty", "sixel", "plain", "none"], default="none")
p.add_argument("--keys", action="append", default=[], help="a key sequence (Python escapes), sent in turn")
p.add_argument("--wait-for", default="", help="send keys only after this text appeared (Python escapes)")
p.add_argument("--delay", type=float, default=0.15)
p.add_argument("--signal", type=int, default=0, help="send this signal instead of the last key")
p.add_argument("--timeout", type=float, default=20)
p.add_argument("--capture", required=True)
p.add_argument("--resize-to", default="", help="COLSxROWS: the key @resize changes the window to this (SIGWINCH)")
p.add_argument("--cell-reply", default="", help="the reply to ESC [16t (Python escapes), sent once")
p.add_argument("--relay", action="store_true",
               help="take the window size from this terminal and copy everything the command writes to it")
p.add_argument("command", nargs=argparse.REMAINDER)
a = p.parse_args()
command = a.command[1:] if a.command and a.command[0] == "--" else a.command

def unescape(s):
    return s.encode("latin-1").decode("unicode_escape").encode("latin-1")

def children(parent):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == parent:
                found.append(int(entry))
    return found


start = time.monotonic()
size = struct.pack("HHHH", a.rows, a.cols, a.xpixel, a.ypixel)
if a.relay:
    size = fcntl.ioctl(1, termios.TIOCGWINSZ, b"\0" * 8)
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, size)
    # As a terminal starts its shell: job-control signals at their defaults, none blocked
    # (a test runner may ignore or block them, and both are inherited).
    for s in (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU, signal.SIGCONT):
        signal.signal(s, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    os.execvp(command[0], command)

out = bytearray()
keys = [unescape(k) for k in a.keys]
wait_for = unescape(a.wait_for)
answered = set()
modes = []
next_key_at = None
# (time a key was sent, time the first output after it came): the latency of each key.
latencies = []
pending_key = None
status = None
while True:
    if time.monotonic() - start > a.timeout:
        os.kill(pid, 9)
    r, _, _ = select.select([fd], [], [], 0.02)
    if r:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            break
        out += chunk
        if pending_key is not None:
            latencies.append(round(time.monotonic() - pending_key, 4))
            pending_key = None
        if a.relay:
            os.write(1, chunk)
    # Probe answers, once each, as the terminal would send them.
    if b"\x1b_Gi=31" in out and "kitty" not in answered:
        answered.add("kitty")
        if a.answer == "kitty":
            os.write(fd, b"\x1b_Gi=31;OK\x1b\\")
    if b"\x1b[>q" in out and "version" not in answered:
        answered.add("version")
        if a.answer == "kitty":
            os.write(fd, b"\x1bP>|kitty(0.35.2)\x1b\\")
        elif a.answer == "sixel":
            os.write(fd, b"\x1bP>|XTerm(379)\x1b\\")
    if a.cell_reply and b"\x1b[16t" in out and "cell" not in answered:
        answered.add("cell")
        os.write(fd, unescape(a.cell_reply))
    if b"\x1b[c" in out and "da1" not in answered:
        answered.add("da1")
        if a.answer == "sixel":
            os.write(fd, b"\x1b[?63;1;2;4;6;9;15;16;22c")
        elif a.answer in ("kitty", "plain"):
            os.write(fd, b"\x1b[?62;22c")
    # Keys, once the command has drawn.
    if keys and (not wait_for or wait_for in out):
        now = time.monotonic()
        if next_key_at is None:
            next_key_at = now + a.delay
        elif keys[0].startswith(b"@await:"):
            # Held until the text has been written N times (then the next key after --delay).
            n, text = keys[0][7:].split(b":", 1)
            if out.count(text) >= int(n):
                keys.pop(0)
                next_key_at = now + a.delay
        elif now >= next_key_at:
            key = keys.pop(0)
            if not keys and a.signal:
                for target in children(pid) or [pid]:
                    os.kill(target, a.signal)
            elif key.startswith(b"@signal:"):
                for target in children(pid) or [pid]:
                    os.kill(target, int(key[8:]))
            elif key == b"@modes":
                # The master's own modes are not the terminal's (Linux keeps them apart):
                # read the slave's, through the command's standard input.
                slave = os.open(os.readlink(f"/proc/{pid}/fd/0"), os.O_RDONLY | os.O_NOCTTY)
                lflag = termios.tcgetattr(slave)[3]
                os.close(slave)
                modes.append({"echo": bool(lflag & termios.ECHO), "icanon": bool(lflag & termios.ICANON)})
            elif key == b"@resize":
                cols, rows = (int(v) for v in a.resize_to.split("x"))
                fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
            else:
                os.write(fd, key)
                pending_key = time.monotonic()
            next_key_at = now + a.delay
    done, raw = os.waitpid(pid, os.WNOHANG)
    if done:
        # Drain what is left.
        while True:
            r, _, _ = select.select([fd], [], [], 0.05)
            if not r:
                break
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        status = os.waitstatus_to_exitcode(raw)
        break
if status is None:
    _, raw = os.waitpid(pid, 0)
    status = os.waitstatus_to_exitcode(raw)
open(a.capture, "wb").write(bytes(out))
print(json.dumps({"status": status, "seconds": round(time.monotonic() - start, 3), "keyLatencies": latencies, "modes": modes}))
