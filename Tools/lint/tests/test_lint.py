"""Tests of the lints themselves (run by `make lint`): each rule fails on what it forbids and
passes once the reason or the declaration is there. The import lint reads a fixture package
(tests/fixture: two Swift targets and the describe JSON SwiftPM would print for them) copied
into a temporary folder, so no swift command runs."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LINT = os.path.dirname(HERE)
sys.path.insert(0, LINT)

import lengths  # noqa: E402
from swiftlex import code_only  # noqa: E402


class ImportLintTests(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.root)
        shutil.copytree(os.path.join(HERE, "fixture"), self.root, dirs_exist_ok=True)
        self.app = os.path.join(self.root, "Sources", "App", "App.swift")

    def lint(self):
        return subprocess.run(
            [sys.executable, os.path.join(LINT, "imports.py"), "--package-path", self.root,
             "--describe-json", os.path.join(self.root, "describe.json")],
            capture_output=True, text=True, cwd=self.root)

    def add_line(self, line):
        with open(self.app, "a") as f:
            f.write(line + "\n")
        with open(self.app) as f:
            return sum(1 for _ in f)

    def declare(self, target, module):
        path = os.path.join(self.root, "describe.json")
        with open(path) as f:
            description = json.load(f)
        for t in description["targets"]:
            if t["name"] == target:
                t.setdefault("target_dependencies", []).append(module)
        with open(path, "w") as f:
            json.dump(description, f)

    def test_declared_standard_and_commented_imports_pass(self):
        result = self.lint()
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(result.stdout, "")

    def test_an_undeclared_import_fails_with_its_file_and_line_until_declared(self):
        for form in ["import Base", "@testable import Base", "@_exported import struct Base.Thing",
                     "package import Base", "@preconcurrency public import Base", "import Foundation; import Base"]:
            with self.subTest(form=form):
                shutil.copy(os.path.join(HERE, "fixture", "Sources", "App", "App.swift"), self.app)
                line = self.add_line(form)
                result = self.lint()
                self.assertEqual(result.returncode, 1, result.stdout)
                self.assertIn(f"Sources/App/App.swift:{line}: target App imports Base", result.stdout)
                self.assertEqual(len(result.stdout.splitlines()), 1, result.stdout)
        self.declare("App", "Base")
        self.assertEqual(self.lint().returncode, 0)

    def test_an_undeclared_c_module_is_an_error(self):
        line = self.add_line("#if canImport(CZlib)\nimport CZlib\n#endif")
        result = self.lint()
        self.assertEqual(result.returncode, 1)
        self.assertIn(f"App.swift:{line - 1}: target App imports CZlib", result.stdout)
        self.declare("App", "CZlib")
        self.assertEqual(self.lint().returncode, 0)

    def test_a_product_is_its_module_and_nothing_else(self):
        self.add_line("import ArgumentParserToolInfo")
        result = self.lint()
        self.assertEqual(result.returncode, 1)
        self.assertIn("imports ArgumentParserToolInfo", result.stdout)


class LexerTests(unittest.TestCase):
    def test_comments_and_strings_are_blank_interpolations_are_code(self):
        source = 'let a = "{ \\(f({ 1 })) }" // {\n/* { /* } */ */ let b = #"\\( {"#\n"""\n{\n"""'
        code = code_only(source)
        self.assertEqual(len(code), len(source))
        self.assertEqual(code.count("\n"), source.count("\n"))
        self.assertEqual(code.count("{"), 1)
        self.assertEqual(code.count("}"), 1)
        self.assertIn("let b =", code)


def swift(*lines):
    return "\n".join(lines) + "\n"


class LengthLintTests(unittest.TestCase):
    def findings(self, text, name="Sources/X/X.swift"):
        return lengths.check_text(name, text)

    def long_function(self, body_lines, reason=None, signature="    func run(a: Int) -> Int {"):
        above = [f"    // Length: {reason}"] if reason else []
        return swift("struct S {", *above, "    /// Docs.", "    @inline(__always)", signature,
                     *['        let s = "}" // {'] * body_lines, "        return a", "    }", "}")

    def test_a_function_over_80_lines_needs_a_reason_right_above_it(self):
        # The declaration line, body lines, `return a` and the closing brace.
        self.assertEqual(self.findings(self.long_function(77)), [])
        found = self.findings(self.long_function(78))
        self.assertEqual(len(found), 1)
        self.assertIn("X.swift:4: S.run is 81 lines", found[0])
        self.assertEqual(self.findings(self.long_function(78, reason="one pass over the rows")), [])

    def test_a_doc_comment_line_is_a_reason_a_blank_line_ends_the_search(self):
        documented = self.long_function(78).replace("    /// Docs.", "    /// Docs.\n    /// Length: a hot loop.")
        self.assertEqual(self.findings(documented), [])
        detached = self.long_function(78).replace("struct S {", "struct S {\n    // Length: not this one.\n")
        self.assertEqual(len(self.findings(detached)), 1)

    def test_initialisers_and_stored_closures_count_too(self):
        init = self.long_function(90, signature="    init(\n        a: Int\n    ) throws {")
        self.assertIn("S.init is", self.findings(init)[0])
        closure = self.long_function(90, signature="    let make: () -> Int = {")
        self.assertIn("S.make is", self.findings(closure)[0])
        test = self.long_function(90, signature="    @Test(.enabled(if: ok), arguments: [1]) func check() {")
        self.assertIn("S.check is", self.findings(test)[0])

    def test_a_long_type_is_not_a_long_function(self):
        members = [f"    func f{i}() {{}}" for i in range(120)]
        self.assertEqual(self.findings(swift("struct S {", *members, "}")), [])

    def test_a_file_over_300_lines_needs_a_reason_at_its_top(self):
        body = [f"let v{i} = {i}" for i in range(300)]
        self.assertEqual(self.findings(swift(*body[:299])), [])
        found = self.findings(swift("import Glibc", *body))
        self.assertEqual(len(found), 1)
        self.assertIn("X.swift:1: file is 301 lines", found[0])
        reasoned = swift("// Length: the tables of one format.", "// More words.", "import Glibc", *body)
        self.assertEqual(self.findings(reasoned), [])
        late = swift("import Glibc", "// Length: too late, not at the top.", *body)
        self.assertEqual(len(self.findings(late)), 1)


if __name__ == "__main__":
    unittest.main()
