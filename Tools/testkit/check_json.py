#!/usr/bin/env python3
"""Checks a forcezoom command's JSON output: every line on standard input (blank lines
skipped) must be one JSON object with no key given twice (parsed with an
object_pairs_hook that refuses duplicates, at every depth) that validates against the
command's schema (JSON Schema draft 2020-12, python3-jsonschema), and carry schemaVersion.

Usage: check_json.py SCHEMA.json < output.jsonl
Exit 0 when every line passes; else 1, the first problem on standard error.
The CLI tests run it on every --json output they see (Tests/TestSupport/CLIRunner.swift).
"""

import json
import os
import sys

import jsonschema


def no_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError("duplicate key %r" % key)
        seen[key] = value
    return seen


def main():
    schema = json.load(open(sys.argv[1]))
    jsonschema.Draft202012Validator.check_schema(schema)
    # A schema may refer to its siblings ("$ref": "compare.schema.json"): they are read from
    # the same folder, never fetched.
    folder = os.path.dirname(os.path.abspath(sys.argv[1]))
    store = {}
    for name in os.listdir(folder):
        if name.endswith(".schema.json"):
            sibling = json.load(open(os.path.join(folder, name)))
            store[sibling.get("$id", name)] = sibling
    resolver = jsonschema.RefResolver.from_schema(schema, store=store)
    validator = jsonschema.Draft202012Validator(schema, resolver=resolver)
    count = 0
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line, object_pairs_hook=no_duplicates)
        except ValueError as e:
            print("line %d: %s: %s" % (number, e, line.strip()[:300]), file=sys.stderr)
            return 1
        errors = sorted(validator.iter_errors(record), key=lambda e: list(e.path))
        if errors:
            e = errors[0]
            where = "/".join(str(p) for p in e.absolute_path) or "(record)"
            print("line %d: %s: %s: %s" % (number, where, e.message[:300], line.strip()[:300]), file=sys.stderr)
            return 1
        count += 1
    if count == 0:
        print("no JSON records", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
