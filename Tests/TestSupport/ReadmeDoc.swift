/// The README's ```console blocks as the doc test reads them: `$ ` lines are commands (a
/// line ending in `\` continues on the next), the lines after a command until the next one
/// are what it prints (stdout and stderr together). A `<!-- doctest: skip ... -->` comment as
/// the last line before a block leaves it out (a terminal, a cluster); `<!-- doctest:
/// unordered -->` compares each command's lines in any order (a batch prints as inputs finish).
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
    }

    package let blocks: [Block]

    package init(_ markdown: String) {
        var blocks: [Block] = []
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var i = 0
        while i < lines.count {
            guard lines[i] == "```console" else {
                i += 1
                continue
            }
            var block = Block(line: i + 1, commands: [])
            let marker = lines[..<i].last { !$0.trimmingCharacters.isEmpty } ?? ""
            block.skip = marker.hasPrefix("<!-- doctest: skip")
            block.unordered = marker.hasPrefix("<!-- doctest: unordered")
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
