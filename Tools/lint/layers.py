#!/usr/bin/env python3
"""Checks the folder structure of Sources/ForceZoomCore (run by `make lint`).

A folder "uses" another when its code names a type declared at the top level of a file in
the other folder (comments and strings are ignored). The check fails when:
  - Geometry/ uses any other folder, or imports a module other than the C library (libm's
    sin/cos come through Glibc/Darwin);
  - two folders use each other, directly or through others (a cycle).
With --graph it prints which folder uses which.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "ForceZoomCore")
DECL = re.compile(r"^(?:public |package |internal |final |fileprivate )*(?:struct|enum|class|protocol|typealias|actor)\s+(\w+)", re.M)


def strip(text):
    text = re.sub(r'"""[\s\S]*?"""', '""', text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"/\*[\s\S]*?\*/", "", text)
    return re.sub(r"//[^\n]*", "", text)


def main():
    files = {}
    for folder, _, names in os.walk(ROOT):
        for name in names:
            if name.endswith(".swift"):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, ROOT)
                files[rel] = strip(open(path, encoding="utf-8").read())
    owner = {}
    for rel, text in files.items():
        for m in DECL.finditer(text):
            owner[m.group(1)] = rel.split(os.sep)[0]
    uses = {}
    problems = []
    for rel, text in sorted(files.items()):
        folder = rel.split(os.sep)[0]
        for name, other in owner.items():
            if other != folder and re.search(r"\b" + name + r"\b", text):
                uses.setdefault(folder, {}).setdefault(other, set()).add(name)
        if folder == "Geometry":
            for m in re.finditer(r"^\s*import\s+(\w+)", text, re.M):
                if m.group(1) not in ("Glibc", "Darwin"):
                    problems.append(f"{rel}: Geometry/ imports {m.group(1)}; it may use only the standard library and libm")
    for other, names in uses.get("Geometry", {}).items():
        problems.append(f"Geometry/ uses {other}/ ({', '.join(sorted(names))}); geometry must stay pure")

    # Cycles: depth-first search over the folder graph.
    graph = {f: set(d) for f, d in uses.items()}
    state = {}

    def visit(node, stack):
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt] if nxt in stack else [node, nxt]
                problems.append("folders use each other: " + " -> ".join(cycle))
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])

    if "--graph" in sys.argv:
        for folder in sorted(uses):
            print(f"{folder}/ uses " + ", ".join(f"{o}/" for o in sorted(uses[folder])))
    for p in problems:
        print("layers: " + p, file=sys.stderr)
    if not problems:
        print(f"layers: {len(files)} files in {len({r.split(os.sep)[0] for r in files})} folders, no cycles, Geometry/ pure")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
