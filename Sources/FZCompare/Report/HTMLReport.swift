import FZSystem
import Geometry

/// `index.html`: the folder comparison for people. Every image is a section, the failures
/// first (changed, size, unreadable, new, missing, in the run's order), then the passed; a
/// failed pair shows expected, actual and the difference picture side by side, fitted to the
/// page's width (a click on one shows the three at 1:1, another fits them again), then the
/// two stacked under a slider (drag to wipe from one to the other) with a blink toggle.
/// Filter links (failed, changed, new, missing, passed, all) set the page's fragment, which
/// the script reads, so `index.html#new` opens on the new images and a link can be shared;
/// without a fragment the page opens on the failures (as Playwright's and reg-cli's reports
/// do), or on all when nothing failed.
///
/// It works offline from the folder it is written in: the pictures are PNGs beside it
/// (`images/NNNNNN/...`, relative links), the CSS and script are inline, nothing is fetched
/// (a Content-Security-Policy forbids any other source), no server is needed. Every file
/// name is escaped (`JUnitReport.escape`): a name is text, never markup.
public enum HTMLReport {
    /// The page.
    public static func html(_ report: FolderReport) -> String {
        var out = head(report)
        out += "<main>\n"
        // Failures first, each group in the run's order; ids keep the run's index.
        let ordered =
            report.images.enumerated().filter { $0.element.status.fails }
            + report.images.enumerated().filter { !$0.element.status.fails }
        for (index, image) in ordered {
            out += section(image, index: index, report: report)
        }
        out += "</main>\n<script>\n\(script)</script>\n</body>\n</html>\n"
        return out
    }

    private static func head(_ report: FolderReport) -> String {
        let e = JUnitReport.escape
        var out = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' file: data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>forcezoom compare: \(e(report.summaryLine))</title>
            <style>
            \(style)</style>
            </head>
            <body data-filter="\(opening(report))" data-opening="\(opening(report))">
            <header>
            <h1>forcezoom compare</h1>

            """
        let threshold = report.threshold.map(PairComparison.text) ?? "none"
        out += "<p class=\"run\">expected <code>\(e(report.expected))</code>, actual <code>\(e(report.actual))</code>; "
        out += "metric \(e(report.metric)), threshold \(e(threshold)), icc \(report.icc)</p>\n"
        out += "<p class=\"summary\">\(e(report.summaryLine))</p>\n<nav>\n"
        let changed = report.images.filter { $0.status.filter == "changed" }.count
        for (filter, count) in [
            ("failed", report.images.filter { $0.status.fails }.count), ("changed", changed),
            ("new", report.count(.new)), ("missing", report.count(.missing)),
            ("passed", report.count(.passed)), ("all", report.images.count),
        ] {
            out += "<a class=\"filter\" id=\"filter-\(filter)\" href=\"#\(filter)\" data-filter=\"\(filter)\">"
            out += "\(filter) (\(count))</a>\n"
        }
        out += "</nav>\n</header>\n"
        return out
    }

    /// The filter the page opens on without a fragment: the failures, or all when none failed.
    private static func opening(_ report: FolderReport) -> String { report.passed ? "all" : "failed" }

    private static func section(_ image: FolderImage, index: Int, report: FolderReport) -> String {
        let e = JUnitReport.escape
        var out = "<section class=\"entry \(image.status.rawValue)\" id=\"image-\(index)\""
        out += " data-status=\"\(image.status.rawValue)\" data-filter=\"\(image.status.filter)\""
        out += " data-fails=\"\(image.status.fails)\">\n"
        out += "<h2><span class=\"status\">\(image.status.rawValue)</span> \(e(image.pair.key))</h2>\n"
        out += "<p class=\"meta\">"
        var facts: [String] = []
        if let p = image.pair.expected {
            facts.append("expected \(e(p))" + (image.expectedSize.map { " \($0)" } ?? ""))
        }
        if let p = image.pair.actual { facts.append("actual \(e(p))" + (image.actualSize.map { " \($0)" } ?? "")) }
        if let m = image.measures { facts.append(e(m.details)) }
        out += facts.joined(separator: "; ") + "</p>\n"
        if let message = image.message { out += "<p class=\"message\">\(e(message))</p>\n" }
        let pictures = [
            ("expected", image.pictures.expected, image.expectedSize),
            ("actual", image.pictures.actual, image.actualSize),
            ("diff", image.pictures.diff, image.expectedSize),
        ]
        if pictures.contains(where: { $0.1 != nil }) {
            out += "<div class=\"trio\">\n"
            for (role, path, size) in pictures {
                guard let path else { continue }
                out += "<figure class=\"\(role)\"><figcaption>\(role)</figcaption>"
                out +=
                    "<img src=\"\(e(path))\" alt=\"\(role)\" title=\"click: 1:1 / fit\"\(dimensions(size))></figure>\n"
            }
            out += "</div>\n"
        }
        if let expected = image.pictures.expected, let actual = image.pictures.actual,
            image.expectedSize == image.actualSize
        {
            out += "<div class=\"wipe\">\n<div class=\"stack\"><img src=\"\(e(expected))\" alt=\"expected\""
            out += "\(dimensions(image.expectedSize))><div class=\"over\"><img src=\"\(e(actual))\" alt=\"actual\""
            out += "\(dimensions(image.actualSize))></div></div>\n"
            out += "<label>expected | actual <input type=\"range\" min=\"0\" max=\"100\" value=\"50\"></label>"
            out += " <button type=\"button\" class=\"blink\">blink</button>\n</div>\n"
        }
        out += "</section>\n"
        return out
    }

    private static func dimensions(_ size: PixelSize?) -> String {
        size.map { " width=\"\($0.width)\" height=\"\($0.height)\"" } ?? ""
    }

    private static let style = """
        body { font: 14px/1.4 system-ui, sans-serif; margin: 0; background: #fff; color: #222; }
        header { padding: 8px 16px; border-bottom: 1px solid #ccc; }
        h1 { font-size: 18px; margin: 0 0 4px; }
        h2 { font-size: 15px; margin: 0 0 4px; word-break: break-all; }
        nav a { display: inline-block; margin-right: 8px; padding: 2px 8px; border: 1px solid #888;
          border-radius: 4px; color: #222; text-decoration: none; }
        nav a[aria-current="true"] { background: #222; color: #fff; }
        section { padding: 8px 16px; border-bottom: 1px solid #eee; }
        section[hidden] { display: none; }
        .status { text-transform: uppercase; font-size: 12px; padding: 1px 4px; border-radius: 3px; background: #ddd; }
        .changed .status, .size .status, .unreadable .status, .missing .status { background: #c00; color: #fff; }
        .new .status { background: #06c; color: #fff; }
        .passed .status { background: #080; color: #fff; }
        .meta, .message { margin: 0 0 6px; color: #555; }
        .trio { display: flex; gap: 16px; align-items: flex-start; flex-wrap: nowrap; }
        .trio figure { flex: 0 1 auto; min-width: 0; }
        figure { margin: 0; }
        figcaption { font-size: 12px; color: #555; }
        img { display: block; image-rendering: pixelated; width: auto; height: auto; max-width: 100%; }
        .trio img { cursor: zoom-in; max-height: 70vh; }
        .one-to-one .trio, .one-to-one .wipe { overflow-x: auto; }
        .one-to-one .trio figure { flex: none; }
        .one-to-one img, .one-to-one .trio img, .one-to-one .stack { max-width: none; max-height: none; }
        .one-to-one .trio img { cursor: zoom-out; }
        .wipe { margin-top: 8px; }
        .stack { position: relative; display: inline-block; max-width: 100%; vertical-align: top; }
        .stack .over { position: absolute; top: 0; left: 0; bottom: 0; width: 50%; overflow: hidden; }
        .stack .over img { max-width: none; height: 100%; width: auto; }
        .stack.blinking .over { width: 100% !important; visibility: hidden; }
        .stack.blinking.on .over { visibility: visible; }

        """

    private static let script = """
        (function () {
          var filters = ["failed", "changed", "new", "missing", "passed", "all"];
          function apply() {
            var f = location.hash.slice(1);
            if (filters.indexOf(f) < 0) f = document.body.getAttribute("data-opening");
            document.body.setAttribute("data-filter", f);
            var entries = document.querySelectorAll("section.entry");
            for (var i = 0; i < entries.length; i++) {
              var e = entries[i];
              e.hidden = !(f === "all" || e.getAttribute("data-filter") === f
                || (f === "failed" && e.getAttribute("data-fails") === "true"));
            }
            var links = document.querySelectorAll("nav a.filter");
            for (var j = 0; j < links.length; j++) {
              links[j].setAttribute("aria-current", links[j].getAttribute("data-filter") === f ? "true" : "false");
            }
          }
          window.addEventListener("hashchange", apply);
          apply();
          var trios = document.querySelectorAll(".trio img");
          for (var t = 0; t < trios.length; t++) {
            trios[t].addEventListener("click", function (ev) {
              ev.currentTarget.closest("section.entry").classList.toggle("one-to-one");
            });
          }
          var wipes = document.querySelectorAll(".wipe");
          for (var k = 0; k < wipes.length; k++) {
            (function (w) {
              var stack = w.querySelector(".stack"), over = w.querySelector(".over");
              var range = w.querySelector("input"), button = w.querySelector("button"), timer = null;
              range.addEventListener("input", function () { over.style.width = range.value + "%"; });
              button.addEventListener("click", function () {
                if (timer) { clearInterval(timer); timer = null; stack.className = "stack"; return; }
                stack.className = "stack blinking on";
                timer = setInterval(function () { stack.classList.toggle("on"); }, 500);
              });
            })(wipes[k]);
          }
        })();

        """
}
