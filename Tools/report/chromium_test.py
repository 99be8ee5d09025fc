#!/usr/bin/python3
"""`make report-test`: the HTML report of `forcezoom compare EXPECTED_DIR ACTUAL_DIR --report`
opened in a real browser, headless Chromium (Debian's chromium), from disk (file://).

1. Folders of solid-colour PNGs (Pillow) give one image of each kind: changed (green
   expected, blue actual), new (yellow), missing (magenta) and passed (gray).
2. `index.html#changed` is screenshot (--screenshot, sRGB, scale 1): the changed pair's
   expected, actual and difference pictures must be on the screen at their places, found by
   colour: one row, left to right, at their pixel sizes; the difference picture's colour is
   read from the diff.png the report wrote (not assumed). Below them the slider's stack shows
   actual on the left half, expected on the right. New and missing are not shown.
3. Each filter (#new, #missing, #passed, #all) is screenshot: exactly its images' colours
   are on the screen. Then the filter links themselves are clicked through the DevTools
   protocol (python3-websocket): after a click on "new", only the new image is shown.
4. The page makes no network request: Chromium's net log (--log-net-log) of the screenshot
   runs holds no http(s) URL; and, so this check can fail, the same check on a copy of the
   page with an <img> from http://127.0.0.1:9/ and no Content-Security-Policy finds it.

Needs chromium, python3-pil, python3-websocket (make report-test installs them).
FZ=path/to/forcezoom. Exit 0 when every check holds, else 1 with the first failures.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

from PIL import Image

FZ = os.path.abspath(os.environ.get("FZ", ".build/debug/forcezoom"))
CHROMIUM = os.environ.get("CHROMIUM", "chromium")
GREEN, BLUE, YELLOW, MAGENTA, GRAY = (0, 200, 0), (0, 0, 255), (255, 220, 0), (200, 0, 200), (128, 128, 128)
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def make_folders(root):
    for d in ("exp", "act"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    Image.new("RGB", (96, 64), GREEN).save(os.path.join(root, "exp/changed.png"))
    Image.new("RGB", (96, 64), BLUE).save(os.path.join(root, "act/changed.png"))
    Image.new("RGB", (80, 40), YELLOW).save(os.path.join(root, "act/new.png"))
    Image.new("RGB", (80, 40), MAGENTA).save(os.path.join(root, "exp/missing.png"))
    Image.new("RGB", (40, 40), GRAY).save(os.path.join(root, "exp/same.png"))
    Image.new("RGB", (40, 40), GRAY).save(os.path.join(root, "act/same.png"))


def chromium_args(profile, extra):
    return [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--force-color-profile=srgb", "--force-device-scale-factor=1", "--window-size=1000,1200",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-default-apps", "--user-data-dir=" + profile] + extra


def screenshot(url, folder, name):
    shot = os.path.join(folder, name + ".png")
    log = os.path.join(folder, name + ".netlog.json")
    profile = tempfile.mkdtemp(dir=folder)
    subprocess.run(chromium_args(profile, ["--screenshot=" + shot, "--log-net-log=" + log, url]),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, check=True)
    return Image.open(shot).convert("RGB"), log


def boxes(image, colour):
    """The bounding boxes (x0, y0, x1, y1) of the bands of rows holding `colour`, top down."""
    w, h = image.size
    px = image.load()
    rows = []
    for y in range(h):
        xs = [x for x in range(w) if px[x, y] == colour]
        rows.append((min(xs), max(xs) + 1) if xs else None)
    bands, start = [], None
    for y in range(h + 1):
        on = y < h and rows[y] is not None
        if on and start is None:
            start = y
        if not on and start is not None:
            xs = [rows[r] for r in range(start, y)]
            bands.append((min(a for a, _ in xs), start, max(b for _, b in xs), y))
            start = None
    return bands


def requested_urls(log):
    """Every URL in the net log's events (a log cut short by the exit is closed first)."""
    text = open(log).read().rstrip()
    if not text.endswith("}"):
        text = text.rstrip(",") + "]}"
    try:
        events = json.loads(text).get("events", [])
    except ValueError:
        # Not parseable: fall back to every quoted URL in the file.
        return [part.split('"')[0] for part in text.split('"http')[1:]]
    urls = []
    for e in events:
        params = e.get("params", {})
        for key in ("url", "original_url", "new_location", "host"):
            if isinstance(params.get(key), str):
                urls.append(params[key])
    return urls


def network(urls):
    return [u for u in urls if u.startswith(("http:", "https:", "ws:", "wss:"))]


def click_filter(index_url, folder, filter_name):
    """Loads the page with DevTools, clicks the filter link, returns which sections show."""
    import websocket  # python3-websocket

    profile = tempfile.mkdtemp(dir=folder)
    proc = subprocess.Popen(chromium_args(profile, ["--remote-debugging-port=0", "about:blank"]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = os.path.join(profile, "DevToolsActivePort")
        for _ in range(300):
            if os.path.exists(port_file) and open(port_file).read().count("\n") >= 1:
                break
            time.sleep(0.1)
        port, path = open(port_file).read().split("\n")[:2]
        ws = websocket.create_connection("ws://127.0.0.1:%s%s" % (port, path), timeout=60)
        ids = iter(range(1, 10000))

        def call(method, params=None, session=None):
            n = next(ids)
            message = {"id": n, "method": method, "params": params or {}}
            if session:
                message["sessionId"] = session
            ws.send(json.dumps(message))
            while True:
                reply = json.loads(ws.recv())
                if reply.get("id") == n:
                    return reply.get("result", {})

        target = call("Target.createTarget", {"url": index_url})["targetId"]
        session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        script = "document.readyState === 'complete' && document.querySelectorAll('section.entry').length"
        for _ in range(300):
            value = call("Runtime.evaluate", {"expression": script}, session).get("result", {}).get("value")
            if value:
                break
            time.sleep(0.1)
        before = call("Runtime.evaluate", {"expression": "document.body.getAttribute('data-filter')"}, session)
        call("Runtime.evaluate", {"expression": "document.getElementById('filter-%s').click()" % filter_name}, session)
        shown = "JSON.stringify(Array.from(document.querySelectorAll('section.entry')).filter(function (s) { return !s.hidden && s.offsetHeight > 0; }).map(function (s) { return s.getAttribute('data-status'); }))"
        for _ in range(50):
            result = call("Runtime.evaluate", {"expression": shown}, session)
            statuses = json.loads(result["result"]["value"])
            if statuses and all(s == filter_name for s in statuses):
                break
            time.sleep(0.1)
        ws.close()
        return before.get("result", {}).get("value"), statuses
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main():
    folder = tempfile.mkdtemp(prefix="fz-report-")
    make_folders(folder)
    run = subprocess.run([FZ, "compare", "exp", "act", "--report", "rep"], cwd=folder, capture_output=True, text=True)
    check(run.returncode == 1, "compare exits 1 (changed, new, missing): %d %s" % (run.returncode, run.stderr.strip()))
    report = json.load(open(os.path.join(folder, "rep/report.json")))
    changed = next(i for i in report["images"] if i["path"] == "changed.png")
    diff = Image.open(os.path.join(folder, "rep", changed["pictures"]["diff"])).convert("RGB")
    diff_colour = diff.getpixel((0, 0))
    check(len(set(diff.getdata())) == 1 and diff_colour not in (GREEN, BLUE), "diff.png is one colour %s" % (diff_colour,))
    index = "file://" + os.path.join(folder, "rep/index.html")

    shot, log = screenshot(index + "#changed", folder, "changed")
    logs = [log]
    found = {name: boxes(shot, colour) for name, colour in (("expected", GREEN), ("actual", BLUE), ("diff", diff_colour))}
    print("#changed:", found)
    trio = {name: bands[0] for name, bands in found.items() if bands}
    check(len(trio) == 3, "expected, actual and diff are on the screen")
    if len(trio) == 3:
        e, a, d = trio["expected"], trio["actual"], trio["diff"]
        check(all(b[2] - b[0] == 96 and b[3] - b[1] == 64 for b in (e, a, d)),
              "each shown at its pixel size 96x64: %s %s %s" % (e, a, d))
        check(abs(e[1] - a[1]) <= 1 and abs(a[1] - d[1]) <= 1, "side by side in one row")
        check(e[2] <= a[0] and a[2] <= d[0], "left to right: expected, actual, diff")
    # The slider's stack: actual clipped to the left half over expected.
    if len(found["expected"]) >= 2 and len(found["actual"]) >= 2:
        se, sa = found["expected"][1], found["actual"][1]
        check(sa[0] < se[0] and sa[2] == se[0] and se[2] - sa[0] == 96, "slider stack: actual left half, expected right: %s %s" % (sa, se))
    else:
        check(False, "slider stack shown below the pair")
    check(not boxes(shot, YELLOW) and not boxes(shot, MAGENTA), "#changed hides new and missing")

    for name, present, absent in (
            ("new", [YELLOW], [GREEN, BLUE, MAGENTA, GRAY]), ("missing", [MAGENTA], [GREEN, BLUE, YELLOW, GRAY]),
            ("passed", [], [GREEN, BLUE, YELLOW, MAGENTA]), ("all", [GREEN, BLUE, YELLOW, MAGENTA], [])):
        shot, log = screenshot(index + "#" + name, folder, name)
        logs.append(log)
        check(all(boxes(shot, c) for c in present) and not any(boxes(shot, c) for c in absent),
              "#%s shows exactly its images" % name)

    before, shown = click_filter(index, folder, "new")
    check(before == "all" and shown == ["new"], "clicking the 'new' filter shows only the new image: %s -> %s" % (before, shown))
    before, shown = click_filter(index + "#new", folder, "missing")
    check(before == "new" and shown == ["missing"], "clicking 'missing' after #new: %s -> %s" % (before, shown))

    urls = [u for log in logs for u in requested_urls(log)]
    check(any(u.startswith("file:") for u in urls), "the net log saw the page's file: loads (%d URLs)" % len(urls))
    check(not network(urls), "no network request: %s" % network(urls)[:5])
    # The check can fail: a page that fetches from the network is seen doing so.
    bad = os.path.join(folder, "rep/leaky.html")
    with open(bad, "w") as f:
        f.write('<!DOCTYPE html><html><body><img src="http://127.0.0.1:9/x.png"></body></html>\n')
    _, log = screenshot("file://" + bad, folder, "leaky")
    check(any("127.0.0.1:9" in u for u in network(requested_urls(log))), "a leaky page's request is caught by the check")

    if failures:
        print("report-test: %d check(s) failed (files in %s)" % (len(failures), folder), file=sys.stderr)
        return 1
    print("report-test: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
