/// The README's ```console blocks as the doc test reads them: `$ ` lines are commands (a
/// line ending in `\` continues on the next), the lines after a command until the next one
/// are what it prints (stdout and stderr together). A `<!-- doctest: skip ... -->` comment as
/// the last line before a block leaves it out (a terminal, a cluster); `<!-- doctest:
/// unordered -->` compares each command's lines in any order (a batch prints as inputs finish);
/// `<!-- doctest: s3 ... -->` runs the block against a local S3 server (issue 52: the
/// examples' folder uploaded to a bucket, the server's keys in the environment).
package struct ReadmeDoc {
    package struct Command: Equatable {
        package var text: String
        package var expected: [String]

        package init(text: String, expected: [String]) {
            self.text = text
            self.expected = expected
        }
    }

    package struct Block: Equatable {
        /// 1-based line of the opening fence.
        package var line: Int
        package var commands: [Command]
        package var skip = false
        package var unordered = false
        package var s3 = false
    }

    /// A fenced block of any language marked `<!-- doctest: file NAME -->` (a pytest file,
    /// a CI step): written as NAME into the examples' folder before the blocks run, so a
    /// console example can run it.
    package struct File: Equatable {
        package var line: Int
        package var name: String
        package var content: String

        package init(line: Int, name: String, content: String) {
            self.line = line
            self.name = name
            self.content = content
        }
    }

    package let blocks: [Block]
    package let files: [File]

    package init(_ markdown: String) {
        var blocks: [Block] = []
        var files: [File] = []
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var i = 0
        while i < lines.count {
            let previous = lines[..<i].last { !$0.trimmingCharacters.isEmpty } ?? ""
            let prefix = "<!-- doctest: file "
            if lines[i].hasPrefix("```"), lines[i] != "```console", previous.hasPrefix(prefix),
                previous.hasSuffix(" -->")
            {
                let name = String(previous.dropFirst(prefix.count).dropLast(4))
                var body: [String] = []
                var j = i + 1
                while j < lines.count, !lines[j].hasPrefix("```") {
                    body.append(lines[j])
                    j += 1
                }
                files.append(File(line: i + 1, name: name, content: body.joined(separator: "\n") + "\n"))
                i = j + 1
                continue
            }
            guard lines[i] == "```console" else {
                i += 1
                continue
            }
            var block = Block(line: i + 1, commands: [])
            let marker = lines[..<i].last { !$0.trimmingCharacters.isEmpty } ?? ""
            block.skip = marker.hasPrefix("<!-- doctest: skip")
            block.unordered = marker.hasPrefix("<!-- doctest: unordered")
            block.s3 = marker.hasPrefix("<!-- doctest: s3")
            i += 1
            while i < lines.count, !lines[i].hasPrefix("```") {
                let line = lines[i]
                if line.hasPrefix("$ ") {
                    var text = String(line.dropFirst(2))
                    while text.hasSuffix("\\"), i + 1 < lines.count {
                        i += 1
                        text = String(text.dropLast()) + " " + lines[i].drop { $0 == " " }
                    }
                    block.commands.append(Command(text: text, expected: []))
                } else if !block.commands.isEmpty {
                    block.commands[block.commands.count - 1].expected.append(line)
                }
                i += 1
            }
            blocks.append(block)
            i += 1
        }
        self.blocks = blocks
        self.files = files
    }

    /// `text` with what changes from run to run or machine to machine replaced by `#`: byte
    /// counts (zlib and libjpeg versions), milliseconds and seconds; trailing blank lines dropped.
    package static func masked(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { mask(String($0)) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    package static func mask(_ line: String) -> String {
        var out = line
        for key in ["bytes", "diffBytes", "milliseconds"] {
            out = replacingNumber(after: "\"\(key)\":", in: out)
        }
        // A summary's "0.1 s" at the end of a line.
        if out.hasSuffix(" s"), let space = out.dropLast(2).lastIndex(of: " ") {
            let number = out[out.index(after: space)..<out.index(out.endIndex, offsetBy: -2)]
            if !number.isEmpty, number.allSatisfy({ $0.isNumber || $0 == "." }) {
                out = String(out[...space]) + "# s"
            }
        }
        return out
    }

    /// Every number right after `prefix` replaced by `#`.
    package static func replacingNumber(after prefix: String, in line: String) -> String {
        var out = ""
        var rest = Substring(line)
        while let r = rest.firstRange(of: prefix) {
            out += rest[..<r.upperBound]
            rest = rest[r.upperBound...]
            let number = rest.prefix { $0.isNumber || $0 == "." }
            if !number.isEmpty {
                out += "#"
                rest = rest.dropFirst(number.count)
            }
        }
        return out + rest
    }
}
