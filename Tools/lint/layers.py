#!/usr/bin/env python3
"""Checks the folders inside the ForceZoomCore target (run by `make lint`).

Between targets, SwiftPM and `import` are the check: Geometry is a target of its own
(Package.swift) and the compiler refuses it any other module. Inside ForceZoomCore the
folders are layers by convention, and this script keeps them acyclic: a folder "uses"
another when its code names a type declared at the top level of a file in the other
folder (comments and strings are ignored). It fails when two folders use each other,
directly or through others (a cycle).

It cannot pass by seeing nothing (its first version missed `public indirect enum JSON`
and passed while there was a cycle): it fails when a Swift file declares a type the
pattern below does not find, or when a folder declares no type at all.
With --graph it prints which folder uses which.
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "ForceZoomCore")
KINDS = r"(?:struct|enum|class|protocol|typealias|actor)"
DECL = re.compile(r"^(?:(?:public|package|internal|final|fileprivate|private|indirect|nonisolated)\s+)*" + KINDS + r"\s+(\w+)", re.M)
# Any line at the top level that declares a type, whatever comes before the keyword: what
# DECL must have matched too (the blind-spot check).
ANY_DECL = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:\w+\s+)*" + KINDS + r"\s+(\w+)", re.M)


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
    problems = []
    for rel, text in files.items():
        seen = {m.group(1) for m in DECL.finditer(text)}
        for m in ANY_DECL.finditer(text):
            if m.group(1) not in seen:
                problems.append(f"{rel}: `{m.group(0).strip()}` declares a type this check does not see; widen DECL")
        for name in seen:
            owner[name] = rel.split(os.sep)[0]
    folders = {rel.split(os.sep)[0] for rel in files if os.sep in rel}
    for folder in sorted(folders - set(owner.values())):
        problems.append(f"{folder}/ declares no type this check sees")
    uses = {}
    for rel, text in sorted(files.items()):
        folder = rel.split(os.sep)[0]
        for name, other in owner.items():
            if other != folder and re.search(r"\b" + name + r"\b", text):
                uses.setdefault(folder, {}).setdefault(other, set()).add(name)

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
        print(f"layers: {len(files)} files in {len({r.split(os.sep)[0] for r in files})} folders, no cycles")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
