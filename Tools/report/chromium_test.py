#!/usr/bin/python3
"""`make report-test`: the HTML report of `forcezoom compare EXPECTED_DIR ACTUAL_DIR --report`
opened in a real browser, headless Chromium (Debian's chromium), from disk (file://).

1. Folders of solid-colour PNGs (Pillow) give one image of each kind: changed (green
   expected, blue actual), new (yellow), missing (magenta) and passed (teal).
2. One Chromium, driven through the DevTools protocol (python3-websocket), loads
   `index.html#changed` and screenshots it (sRGB, scale 1): the changed pair's expected,
   actual and difference pictures must be on the screen at their places, found by colour:
   one row, left to right, at their pixel sizes; the difference picture's colour is read from
   the diff.png the report wrote (not assumed). Below them the slider's stack shows actual on
   the left half, expected on the right. New and missing are not shown.
3. Each filter link (new, missing, passed, all, changed) is clicked: the sections listed as
   shown and the screenshot's colours must be exactly that filter's; `index.html#missing`
   loaded afresh opens on missing.
4. The first screen of a report of large pictures (1200x800), loaded with no fragment in a
   1400x900 window, shows the failures: the page opens on "failed", the passed pair listed
   first by name is hidden and every section on the screen is a failure (DOM), and the
   first failure's expected, actual and diff pictures are all inside the screen, side by
   side, each fitted to a third of the width at the picture's aspect ratio (screenshot, by
   colour); a click on one shows them at 1:1 (1200 px wide, DOM), another fits them again.
   Identical images' PSNR is the word inf, no quotes.
5. The page makes no network request: that browser's net log (--log-net-log) holds no
   http(s) request a document started (Chromium's own update and account checks are told
   apart by their initiator); and, so this check can fail, a page with an <img> from http://127.0.0.1:9/
   and no Content-Security-Policy, screenshot by a second Chromium, is caught by it.

Needs chromium, python3-pil, python3-websocket (make report-test installs them).
FZ=path/to/forcezoom. Exit 0 when every check holds, else 1 with the first failures.
"""
import base64
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from PIL import Image

FZ = os.path.abspath(os.environ.get("FZ", ".build/debug/forcezoom"))
CHROMIUM = os.environ.get("CHROMIUM", "chromium")
# Colours no text antialiasing or badge of the page makes (a gray would be).
GREEN, BLUE, YELLOW, MAGENTA, TEAL = (0, 200, 0), (0, 0, 255), (255, 220, 0), (200, 0, 200), (17, 170, 153)
COLOURS = [GREEN, BLUE, YELLOW, MAGENTA, TEAL]
failures = []
passes = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    (passes if ok else failures).append(what)


# The large report's pictures (4.): colours apart from the others and from the page's badges.
ORANGE, PURPLE, OLIVE = (255, 140, 0), (120, 0, 255), (128, 128, 0)


def make_large_folders(root):
    for d in ("exp", "act"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    # "a-same" sorts before "b-changed": a report in the run's order would show it first.
    Image.new("RGB", (1200, 800), OLIVE).save(os.path.join(root, "exp/a-same.png"))
    Image.new("RGB", (1200, 800), OLIVE).save(os.path.join(root, "act/a-same.png"))
    Image.new("RGB", (1200, 800), ORANGE).save(os.path.join(root, "exp/b-changed.png"))
    Image.new("RGB", (1200, 800), PURPLE).save(os.path.join(root, "act/b-changed.png"))


def first_screen(browser, folder):
    """4.: the large report's first screen at 1400x900, and the click for 1:1."""
    root = os.path.join(folder, "large")
    make_large_folders(root)
    run = subprocess.run([FZ, "compare", "exp", "act", "--report", "rep"], cwd=root, capture_output=True, text=True)
    check(run.returncode == 1, "large compare exits 1 (one changed): %d %s" % (run.returncode, run.stderr.strip()))
    report = json.load(open(os.path.join(root, "rep/report.json")))
    changed = next(i for i in report["images"] if i["path"] == "b-changed.png")
    diff_colour = Image.open(os.path.join(root, "rep", changed["pictures"]["diff"])).convert("RGB").getpixel((0, 0))
    page = open(os.path.join(root, "rep/index.html")).read()
    check("psnr inf" in page and 'psnr "inf"' not in page and "&quot;inf" not in page,
          "identical images' PSNR is printed as the word inf, without quotes")
    browser.call("Emulation.setDeviceMetricsOverride",
                 {"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": False}, page=True)
    check(browser.load("file://" + os.path.join(root, "rep/index.html")), "the large report loads with its images")
    state = json.loads(browser.evaluate(
        "JSON.stringify({filter: document.body.getAttribute('data-filter'),"
        " first: document.querySelector('section.entry').getAttribute('data-status'),"
        " onScreen: Array.from(document.querySelectorAll('section.entry')).filter(function (s) {"
        "   var r = s.getBoundingClientRect(); return !s.hidden && s.offsetHeight > 0 && r.top < innerHeight; })"
        "   .map(function (s) { return s.getAttribute('data-status'); }),"
        " passedHidden: document.querySelector('section.entry.passed').hidden})"))
    print("first screen:", state)
    check(state["filter"] == "failed", "with no fragment the page opens on the failures: %s" % state["filter"])
    check(state["first"] == "changed", "the failure comes first in the page, before the passed pair named before it")
    check(state["onScreen"] == ["changed"] and state["passedHidden"], "the first screen shows the failure only")
    shot = browser.screenshot()
    shot.save(os.path.join(folder, "large-first-screen.png"))
    check(shot.size == (1400, 900), "the screenshot is the 1400x900 screen: %s" % (shot.size,))
    found = {name: boxes(shot, colour) for name, colour in (("expected", ORANGE), ("actual", PURPLE),
                                                             ("diff", diff_colour))}
    print("large first screen:", found)
    trio = {name: bands[0] for name, bands in found.items() if bands}
    check(len(trio) == 3, "the first failure's expected, actual and diff are all on the first screen")
    if len(trio) == 3:
        e, a, d = trio["expected"], trio["actual"], trio["diff"]
        inside = all(0 <= b[0] and b[2] <= 1400 and 0 <= b[1] and b[3] <= 900 for b in (e, a, d))
        check(inside, "each picture wholly inside the screen: %s %s %s" % (e, a, d))
        check(e[2] <= a[0] and a[2] <= d[0] and abs(e[1] - a[1]) <= 1 and abs(a[1] - d[1]) <= 1,
              "side by side, left to right: expected, actual, diff")
        widths = [b[2] - b[0] for b in (e, a, d)]
        ratios = [(b[2] - b[0]) / (b[3] - b[1]) for b in (e, a, d)]
        check(all(300 <= w <= 1400 / 3 for w in widths) and all(abs(r - 1.5) < 0.02 for r in ratios),
              "each fitted to about a third of the width at 3:2: widths %s" % widths)
    sizes = ("JSON.stringify(Array.from(document.querySelectorAll('section.changed .trio img')).map(function (i) {"
             " return [i.naturalWidth, Math.round(i.getBoundingClientRect().width)]; }))")
    browser.evaluate("document.querySelector('section.changed .trio img').click()")
    one = json.loads(browser.evaluate(sizes))
    check(len(one) == 3 and all(w == n == 1200 for n, w in one), "a click shows the three at 1:1: %s" % one)
    browser.evaluate("document.querySelector('section.changed .trio img').click()")
    fit = json.loads(browser.evaluate(sizes))
    check(len(fit) == 3 and all(w < n for n, w in fit), "a second click fits them again: %s" % fit)


def make_folders(root):
    for d in ("exp", "act"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    Image.new("RGB", (96, 64), GREEN).save(os.path.join(root, "exp/changed.png"))
    Image.new("RGB", (96, 64), BLUE).save(os.path.join(root, "act/changed.png"))
    Image.new("RGB", (80, 40), YELLOW).save(os.path.join(root, "act/new.png"))
    Image.new("RGB", (80, 40), MAGENTA).save(os.path.join(root, "exp/missing.png"))
    Image.new("RGB", (40, 40), TEAL).save(os.path.join(root, "exp/same.png"))
    Image.new("RGB", (40, 40), TEAL).save(os.path.join(root, "act/same.png"))


def chromium_args(profile, extra):
    return [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--force-color-profile=srgb", "--force-device-scale-factor=1", "--window-size=1000,1200",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-default-apps", "--disable-features=NetworkTimeServiceQuerying,OptimizationHints,MediaRouter",
            "--user-data-dir=" + profile] + extra


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


def shows(image, colour):
    """Whether `colour` covers a picture's worth of pixels (at least 100)."""
    return sum(1 for p in image.getdata() if p == colour) >= 100


def requested_urls(log):
    """The URLs the page asked for, from the net log (a log cut short is closed first).

    Chromium fetches for itself too (its component updater, account and time checks:
    initiator "not an origin", no file:// isolation key), whatever the flags; those are not
    the page's. A request is the page's when a document started it: its initiator is an
    origin ("null" for file://) or its network isolation key is the file:// site."""
    text = open(log).read().rstrip()
    if not text.endswith("}"):
        text = text.rstrip(",") + "]}"
    data = json.loads(text)
    start = data["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    urls = []
    for e in data.get("events", []):
        params = e.get("params", {})
        if e.get("type") != start or not isinstance(params.get("url"), str):
            continue
        if params.get("initiator") != "not an origin" or "file://" in params.get("network_isolation_key", ""):
            urls.append(params["url"])
    return urls


def network(urls):
    return [u for u in urls if u.startswith(("http:", "https:", "ws:", "wss:"))]


class Browser:
    """Headless Chromium driven through the DevTools protocol (python3-websocket), its
    network activity logged to `netlog`: one browser for every screenshot and click."""

    def __init__(self, folder, netlog):
        import websocket  # python3-websocket

        self.profile = tempfile.mkdtemp(dir=folder)
        self.proc = subprocess.Popen(
            chromium_args(self.profile, ["--remote-debugging-port=0", "--log-net-log=" + netlog, "about:blank"]),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        for _ in range(1200):
            if os.path.exists(port_file) and open(port_file).read().count("\n") >= 1:
                break
            time.sleep(0.1)
        port, path = open(port_file).read().split("\n")[:2]
        self.ws = websocket.create_connection("ws://127.0.0.1:%s%s" % (port, path), timeout=120)
        self.ids = iter(range(1, 1000000))
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": 1000, "height": 1200, "deviceScaleFactor": 1, "mobile": False}, page=True)

    def call(self, method, params=None, page=False):
        n = next(self.ids)
        message = {"id": n, "method": method, "params": params or {}}
        if page:
            message["sessionId"] = self.session
        self.ws.send(json.dumps(message))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == n:
                return reply.get("result", {})

    def evaluate(self, expression):
        return self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True}, page=True).get(
            "result", {}).get("value")

    def wait(self, expression):
        for _ in range(600):
            if self.evaluate(expression):
                return True
            time.sleep(0.1)
        return False

    def load(self, url):
        self.call("Page.navigate", {"url": url}, page=True)
        return self.wait("document.readyState === 'complete' && document.querySelectorAll('section.entry').length > 0"
                         " && Array.from(document.images).every(function (i) { return i.complete; })")

    def screenshot(self):
        data = self.call("Page.captureScreenshot", {"format": "png"}, page=True)["data"]
        return Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB")

    def shown(self):
        return json.loads(self.evaluate(
            "JSON.stringify(Array.from(document.querySelectorAll('section.entry')).filter(function (s) {"
            " return !s.hidden && s.offsetHeight > 0; }).map(function (s) { return s.getAttribute('data-filter'); }))"))

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            self.proc.wait(timeout=30)


def main():
    folder = tempfile.mkdtemp(prefix="fz-report-")
    make_folders(folder)
    run = subprocess.run([FZ, "compare", "exp", "act", "--report", "rep"], cwd=folder, capture_output=True, text=True)
    check(run.returncode == 1, "compare exits 1 (changed, new, missing): %d %s" % (run.returncode, run.stderr.strip()))
    report = json.load(open(os.path.join(folder, "rep/report.json")))
    changed = next(i for i in report["images"] if i["path"] == "changed.png")
    diff = Image.open(os.path.join(folder, "rep", changed["pictures"]["diff"])).convert("RGB")
    diff_colour = diff.getpixel((0, 0))
    check(len(set(diff.getdata())) == 1 and diff_colour not in COLOURS, "diff.png is one colour %s" % (diff_colour,))
    index = "file://" + os.path.join(folder, "rep/index.html")
    netlog = os.path.join(folder, "page.netlog.json")
    browser = Browser(folder, netlog)
    try:
        check(browser.load(index + "#changed"), "index.html#changed loads with its images")
        shot = browser.screenshot()
        shot.save(os.path.join(folder, "changed.png"))
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
            check(sa[0] < se[0] and sa[2] == se[0] and se[2] - sa[0] == 96,
                  "slider stack: actual left half, expected right: %s %s" % (sa, se))
        else:
            check(False, "slider stack shown below the pair")
        check(not shows(shot, YELLOW) and not shows(shot, MAGENTA), "#changed hides new and missing")
        # Each filter link clicked in turn: what the page shows, and the screenshot's colours.
        for name, present in (("failed", [GREEN, BLUE, YELLOW, MAGENTA]), ("new", [YELLOW]), ("missing", [MAGENTA]), ("passed", []),
                              ("all", [GREEN, BLUE, YELLOW, MAGENTA]), ("changed", [GREEN, BLUE])):
            browser.evaluate("document.getElementById('filter-%s').click()" % name)
            browser.wait("document.body.getAttribute('data-filter') === '%s'" % name)
            listed = browser.shown()
            shot = browser.screenshot()
            shot.save(os.path.join(folder, "click-%s.png" % name))
            wanted = {"new": ["new"], "missing": ["missing"], "passed": ["passed"], "changed": ["changed"],
                      "failed": ["changed", "missing", "new"]}.get(
                name, ["changed", "missing", "new", "passed"])
            check(sorted(listed) == wanted, "after a click on '%s' the page lists %s" % (name, listed))
            absent = [c for c in COLOURS if c not in present]
            check(all(shows(shot, c) for c in present) and not any(shows(shot, c) for c in absent),
                  "after a click on '%s' the screenshot shows exactly its images" % name)
        # A fragment opens the page on one filter.
        check(browser.load(index + "?again#missing") and browser.shown() == ["missing"], "index.html#missing opens on missing")
        first_screen(browser, folder)
    finally:
        browser.close()
    urls = requested_urls(netlog)
    check(os.path.getsize(netlog) > 0, "the net log was written (the page's requests: %s)" % urls[:5])
    check(not network(urls), "no network request: %s" % network(urls)[:5])
    # The check can fail: a page that fetches from the network is seen doing so.
    bad = os.path.join(folder, "rep/leaky.html")
    with open(bad, "w") as f:
        f.write('<!DOCTYPE html><html><body><img src="http://127.0.0.1:9/x.png"></body></html>\n')
    _, log = screenshot("file://" + bad, folder, "leaky")
    check(any("127.0.0.1:9" in u for u in network(requested_urls(log))), "a leaky page's request is caught by the check")
    # And the report's Content-Security-Policy stops one: the same <img> put into index.html.
    page = open(os.path.join(folder, "rep/index.html")).read()
    guarded = os.path.join(folder, "rep/guarded.html")
    with open(guarded, "w") as f:
        f.write(page.replace("<main>", '<main><img src="http://127.0.0.1:9/y.png">', 1))
    _, log = screenshot("file://" + guarded, folder, "guarded")
    check(not network(requested_urls(log)), "the report's Content-Security-Policy blocks an injected http image")

    # The closing line CI logs are read for: "N passed, N failed".
    print("report-test: %d passed, %d failed" % (len(passes), len(failures)))
    if failures:
        print("report-test: %d check(s) failed (files in %s)" % (len(failures), folder), file=sys.stderr)
        return 1
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
