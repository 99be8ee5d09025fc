"""Swift source with its comments and string literals blanked out, for the lints.

`code_only(text)` returns a string of the same length and the same newlines in which every
character of a comment or of a string literal's content is a space. What is left is code:
an `import` inside a multi-line string holding a Python script, or a `{` inside a comment,
no longer counts. String interpolations (`\\(...)`, `\\#(...)` in raw strings) are code,
so a closure inside one still has its braces matched.
"""


def code_only(text: str) -> str:
    out = list(text)
    n = len(text)
    i = 0
    # Each entry is an open string: (hashes, multiline, paren depth of its interpolation or
    # -1 while inside the literal itself). Code at the bottom level has no entry.
    stack: list[list] = []

    def blank(a: int, b: int) -> None:
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        in_literal = bool(stack) and stack[-1][2] < 0
        if in_literal:
            hashes, multiline, _ = stack[-1]
            c = text[i]
            if c == "\\" and text.startswith("#" * hashes, i + 1):
                j = i + 1 + hashes
                if j < n and text[j] == "(":
                    # An interpolation: code until its parenthesis closes.
                    blank(i, j)
                    stack[-1][2] = 0
                    i = j + 1
                    continue
                blank(i, min(j + 1, n))
                i = j + 1
                continue
            close = ('"""' if multiline else '"') + "#" * hashes
            if text.startswith(close, i):
                i += len(close)
                stack.pop()
                continue
            if c == "\n" and not multiline:
                # An unterminated single-line string: stop blanking at the line's end.
                stack.pop()
                i += 1
                continue
            blank(i, i + 1)
            i += 1
            continue

        # Code (at the bottom level or inside an interpolation).
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
            continue
        if text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
            continue
        if c == "#" or c == '"':
            j = i
            while j < n and text[j] == "#":
                j += 1
            hashes = j - i
            if j < n and text[j] == '"':
                multiline = text.startswith('"""', j)
                start = j + (3 if multiline else 1)
                stack.append([hashes, multiline, -1])
                i = start
                continue
            i = max(j, i + 1)
            continue
        if stack:
            if c == "(":
                stack[-1][2] += 1
            elif c == ")":
                if stack[-1][2] == 0:
                    stack[-1][2] = -1  # back inside the literal
                    i += 1
                    continue
                stack[-1][2] -= 1
        i += 1
    return "".join(out)
