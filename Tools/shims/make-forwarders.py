#!/usr/bin/env python3
"""Writes the forwarders of a library forcezoom opens on first use (dlopen) instead of linking,
as Sources/CFZJXL/fz_jxl_loader.c does for libjxl: for each function the Swift code calls, one
fz_NAME with the library's prototype, read from its preprocessed headers, that calls NAME in
the opened library. Prints the declarations (for the shim's header), the definitions, and the
entries of the loader's symbol table (fz_loader_entry: every name, which fz_loader_available
resolves before the first call; LibraryTableTests compares it with the forwarders).

usage: make-forwarders.py HEADER NAME... > /tmp/forwarders.txt
HEADER is a file that #includes the library's headers (e.g. Sources/CJXL/shim.h); NAME@LIB
puts NAME in library slot LIB (default 0) of the loader's FZ_SYMBOL(slot, name)."""
import re
import subprocess
import sys


def main():
    header, names = sys.argv[1], sys.argv[2:]
    text = subprocess.run(["cc", "-E", "-P", header], check=True, capture_output=True, text=True).stdout
    text = re.sub(r"\s+", " ", text)
    decls, defs, table = [], [], []
    for item in names:
        name, _, slot = item.partition("@")
        m = re.search(r"([A-Za-z_][\w\s\*]*?)\b" + re.escape(name) + r"\s*\(([^;{]*?)\)\s*;", text)
        if not m:
            sys.exit(f"make-forwarders: {name} is not declared in {header}")
        ret, params = m.group(1).strip(), m.group(2).strip()
        ret = re.sub(r"^(extern|__attribute__\(\(.*?\)\))\s*", "", ret).strip()
        args = [] if params in ("", "void") else [p.strip() for p in split_params(params)]
        # The headers' parameter names where they give one, else a0, a1, ...
        args = [named(p, i) for i, p in enumerate(args)]
        names_ = [re.search(r"(\w+)\s*(\[[^\]]*\])?\s*$", p).group(1) for p in args]
        proto = f"{ret} fz_{name}({', '.join(args) or 'void'})"
        call = f"FZ_SYMBOL({slot or 0}, {name})({', '.join(names_)})"
        decls.append(proto + ";")
        table.append(f'    {{{slot or 0}, "{name}"}},')
        defs.append(proto + " {\n    " + ("" if ret == "void" else "return ") + call + ";\n}")
    print("\n".join(decls))
    print()
    print("\n".join(defs))
    print()
    print("\n".join(table))


def named(param, i):
    """`param` with a name: its own, or a{i} when the header gives only the type."""
    words = [w for w in re.findall(r"\w+", re.sub(r"\[[^\]]*\]", "", param))
             if w not in ("const", "struct", "enum", "unsigned", "signed", "volatile")]
    if len(words) >= 2:
        return param
    m = re.match(r"^(.*?)(\[[^\]]*\])\s*$", param)
    return f"{m.group(1).strip()} a{i}{m.group(2)}" if m else f"{param} a{i}"


def split_params(params):
    depth, cur, out = 0, "", []
    for ch in params:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    out.append(cur)
    return out


main()
