#!/usr/bin/env python3
"""Length lint: a long Swift file or function says why it is long.

The house rule (CONTRIBUTING.md, "Conventions"): files under about 300 lines, functions
under about 80. A file over MAX_FILE_LINES lines carries a line starting `// Length:` in
the comments at its top (before its first line of code); a function, initialiser,
subscript, accessor-bodied property or stored closure over MAX_FUNCTION_LINES lines
(from its keyword's line to its closing brace) carries a `// Length:` line in the
comments and attributes right above it. The words after `Length:` are the reason: a hot
loop kept in one piece, a table, a test that reads best top to bottom.

Braces are matched on the code alone: comments and string literals are blanked first
(swiftlex.py), so a `{` in a message or a Python script held in a string does not count.

usage: lengths.py [PATH...]   (default: the paths `make lint` formats)
Exit status 1 and one `file:line: ...` line per long file or function without a reason.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from swiftlex import code_only  # noqa: E402

MAX_FILE_LINES = 300
MAX_FUNCTION_LINES = 80
REASON = re.compile(r"^\s*//+\s*Length:")
DEFAULT_PATHS = ["Sources", "Tests", "Tools/fuzz/Sources", "Package.swift"]

# Nothing is skipped: every target keeps the rule (issue 48 split FZCodecs, which was).
EXCLUDED: list[str] = []

MODIFIERS = (
    r"(?:@\w+(?:\((?:[^()]|\([^()]*\))*\))?|public|private|fileprivate|internal|package|open|static|class|final"
    r"|override|mutating|nonmutating|lazy|weak|unowned|convenience|required|dynamic|nonisolated"
    r"|isolated|consuming|borrowing|distributed|indirect|optional|prefix|postfix|infix"
    r"|(?:private|fileprivate|internal|package|public)\(set\))"
)
PREFIX = re.compile(rf"^\s*(?:{MODIFIERS}\s+)*$")
DECLARATION = re.compile(
    r"(?<![\w.])(?:(func)\s+([^\s(<]+)|(init)[?!]?(?=\s*[(<])|(deinit)\b|(subscript)(?=\s*[(<])"
    r"|(var|let)\s+([A-Za-z_]\w*|`[^`]+`)"
    r"|(struct|class|enum|extension|actor|protocol)\s+([A-Za-z_][\w.]*))"
)
TYPE_KINDS = {"struct", "class", "enum", "extension", "actor", "protocol"}
CONTINUATION = re.compile(r"^\s*(->|throws|rethrows|async|where|\{|\)|&)")


def _line_starts(text):
    starts = [0]
    for i, c in enumerate(text):
        if c == "\n":
            starts.append(i + 1)
    return starts


def _line_of(starts, offset):
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo  # 0-based


def _body_start(code, start, kind):
    """Offset of the `{` that opens the body of the declaration whose keyword ends at start, or None."""
    depth = 0
    i, n = start, len(code)
    saw_equals = False
    while i < n:
        c = code[i]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0:
            if c == "{":
                if kind in ("var", "let"):
                    # A computed property (`var x: T {`) or a stored closure (`let f = {`).
                    before = code[start:i].rstrip()
                    return i if (not saw_equals and ":" in before) or before.endswith("=") else None
                return i
            if c in "};":
                return None
            if c == "=":
                if kind not in ("var", "let"):
                    return None  # a default value or a typealias-like form: no body here
                saw_equals = True
            if c == "\n":
                line_end = code[start:i].rstrip()
                rest = code[i + 1:]
                following = rest.lstrip("\n \t")
                if line_end.endswith((",", "->", ":", "&", "=", "(")) or CONTINUATION.match(following):
                    i += 1
                    continue
                return None
        i += 1
    return None


def _matching(code, open_at):
    depth = 0
    for i in range(open_at, len(code)):
        if code[i] == "{":
            depth += 1
        elif code[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(code) - 1


def _has_reason_above(lines, index):
    """Whether the comment and attribute lines right above line `index` hold a `// Length:` line."""
    k = index - 1
    while k >= 0:
        stripped = lines[k].strip()
        if REASON.match(stripped):
            return True
        if stripped.startswith(("//", "/*", "*", "@")) or stripped.endswith("*/"):
            k -= 1
            continue
        return False
    return False


def _file_has_reason(lines):
    for line in lines:
        stripped = line.strip()
        if REASON.match(stripped):
            return True
        if stripped and not stripped.startswith(("//", "/*", "*")):
            return False
    return False


def check_text(name, text):
    findings = []
    lines = text.splitlines()
    if len(lines) > MAX_FILE_LINES and not _file_has_reason(lines):
        findings.append(
            f"{name}:1: file is {len(lines)} lines (over {MAX_FILE_LINES}): split it, or say why it is "
            f"one file in a `// Length: ...` line in the comments at its top")
    code = code_only(text)
    starts = _line_starts(code)
    types = []  # (open, close, name)
    functions = []  # (line index, open, close, name)
    for m in DECLARATION.finditer(code):
        line = _line_of(starts, m.start())
        if not PREFIX.match(code[starts[line]:m.start()]):
            continue
        kind = next(g for g in (m.group(1), m.group(3), m.group(4), m.group(5), m.group(6), m.group(8)) if g)
        body = _body_start(code, m.end(), kind)
        if body is None:
            continue
        close = _matching(code, body)
        if kind in TYPE_KINDS:
            types.append((body, close, m.group(9)))
        else:
            name_ = m.group(2) or m.group(7) or kind
            functions.append((line, body, close, name_))
    for line, body, close, name_ in functions:
        length = _line_of(starts, close) - line + 1
        if length <= MAX_FUNCTION_LINES or _has_reason_above(lines, line):
            continue
        owners = [t for t in types if t[0] < body and close <= t[1]]
        owner = min(owners, key=lambda t: t[1] - t[0])[2] + "." if owners else ""
        findings.append(
            f"{name}:{line + 1}: {owner}{name_} is {length} lines (over {MAX_FUNCTION_LINES}): extract "
            f"well-named helpers, or say why it is one piece in a `// Length: ...` comment right above it")
    return findings


def swift_files(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for folder, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for f in sorted(files):
                if f.endswith(".swift"):
                    yield os.path.join(folder, f)


def main(argv):
    findings = []
    for path in swift_files(argv or DEFAULT_PATHS):
        shown = os.path.relpath(path)
        if any(shown.startswith(excluded) for excluded in EXCLUDED):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            findings += check_text(shown, f.read())
    for finding in findings:
        print(finding)
    if findings:
        print(f"lengths.py: {len(findings)} long file(s) or function(s) without a reason", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
