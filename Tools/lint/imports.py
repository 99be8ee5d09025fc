#!/usr/bin/env python3
"""Import lint: every module a Swift target imports must be one it declares.

SwiftPM lets a target import any module built before it, its dependencies' dependencies
included, so `import FZCodecs` compiles in a target that declares only FZOperations. This
lint makes `import` say the truth: each `import` line of each Swift target (every form:
attributes such as @testable, @_exported, @preconcurrency; access levels such as `package
import`; `import struct X.Y`; lines inside `#if canImport(...)`) must name the target
itself, one of its `target_dependencies`, a module of one of its `product_dependencies`,
or a module of the toolchain (STANDARD_MODULES). A C system module (`CZlib`) or shim
(`CFZProcess`) is no exception: a target that calls a C library says so in Package.swift.

The declarations come from `swift package describe --type json` (no build; it does not
need the network). Products of other packages map to their modules through the
dependency's own description when it is checked out in .build/checkouts, else to the
module of the product's name (swift-argument-parser's ArgumentParser).

usage: imports.py [--package-path DIR]... [--describe-json FILE]
Exit status 1 and one `file:line: ...` line per finding when any import is undeclared.
"""

import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from swiftlex import code_only  # noqa: E402

# Modules the toolchain or the C library provide, which no Package.swift declares.
STANDARD_MODULES = {
    "Swift", "_Concurrency", "_StringProcessing", "_Backtracing", "RegexBuilder",
    "Synchronization", "Observation", "Distributed", "Cxx", "CxxStdlib",
    "Glibc", "SwiftGlibc", "Musl", "Android", "Bionic", "Darwin", "WinSDK", "ucrt", "CRT",
    "Foundation", "FoundationEssentials", "FoundationInternationalization",
    "FoundationNetworking", "FoundationXML", "Dispatch",
    "Testing", "XCTest", "PackageDescription", "PackagePlugin",
}

IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s*)*"  # @testable, @_exported, @preconcurrency, @_spi(X)
    r"(?:(?:public|package|internal|fileprivate|private|open)\s+)?"
    r"import\s+"
    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func|actor)\s+)?"
    r"([A-Za-z_]\w*)"
)


def imports(path: str):
    """(line number, module, line text) for each import of a Swift file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    lines = text.split("\n")
    for number, code in enumerate(code_only(text).split("\n"), 1):
        for statement in code.split(";"):
            m = IMPORT.match(statement)
            if m:
                yield number, m.group(1), lines[number - 1].strip()


def describe(package_path: str) -> dict:
    result = subprocess.run(
        ["swift", "package", "--package-path", package_path, "describe", "--type", "json"],
        capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"imports.py: swift package describe failed in {package_path}:\n{result.stderr}")
    # describe may print resolution notes before the JSON.
    return json.loads(result.stdout[result.stdout.index("{"):])


def product_modules(package_path: str, description: dict) -> dict:
    """Product name -> module names, for this package's products and its checked-out dependencies."""
    modules = {}

    def add(desc: dict) -> None:
        c99 = {t["name"]: t.get("c99name", t["name"]) for t in desc.get("targets", [])}
        for p in desc.get("products", []):
            modules.setdefault(p["name"], {c99.get(t, t) for t in p.get("targets", [])})

    add(description)
    checkouts = os.path.join(package_path, ".build", "checkouts")
    for dep in description.get("dependencies", []):
        if dep.get("type") == "fileSystem" and dep.get("path"):
            where = dep["path"]
        else:
            where = os.path.join(checkouts, dep.get("identity", ""))
            if not os.path.isdir(where):
                # Not resolved yet (a fresh clone): the last path component of the URL.
                url = dep.get("url", "").rstrip("/").removesuffix(".git")
                where = os.path.join(checkouts, url.rsplit("/", 1)[-1])
        if os.path.isfile(os.path.join(where, "Package.swift")):
            try:
                add(describe(where))
            except SystemExit:
                pass
    return modules


def check(package_path: str, description: dict) -> list[str]:
    products = product_modules(package_path, description)
    root = description.get("path", package_path)
    findings = []
    for target in description.get("targets", []):
        if target.get("module_type") != "SwiftTarget":
            continue
        own = target.get("c99name", target["name"])
        declared = {own} | set(target.get("target_dependencies", []))
        for product in target.get("product_dependencies", []):
            declared |= products.get(product, {re.sub(r"\W", "_", product)})
        for source in target.get("sources", []):
            path = os.path.join(root, target["path"], source)
            if not path.endswith(".swift"):
                continue
            for number, module, line in imports(path):
                if module in declared or module in STANDARD_MODULES:
                    continue
                shown = os.path.relpath(path)
                findings.append(
                    f"{shown}:{number}: target {target['name']} imports {module}, which it does not "
                    f"declare in {os.path.relpath(os.path.join(root, 'Package.swift'))} "
                    f"(add it to the target's dependencies, or use what a declared module offers): {line}")
    return findings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--package-path", action="append",
                        help="a package to check (repeatable; default: the current folder)")
    parser.add_argument("--describe-json", help="read this description instead of running swift package describe")
    args = parser.parse_args()
    findings = []
    for package_path in args.package_path or ["."]:
        if args.describe_json:
            with open(args.describe_json) as f:
                description = json.load(f)
            description.setdefault("path", package_path)
        else:
            description = describe(package_path)
        findings += check(package_path, description)
    for finding in findings:
        print(finding)
    if findings:
        print(f"imports.py: {len(findings)} undeclared import(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
