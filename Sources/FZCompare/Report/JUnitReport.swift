import FZSystem

/// `junit.xml`: one `<testcase>` per image, as CI systems (GitLab, Jenkins, GitHub's test
/// reporters) import JUnit XML. A changed, size-mismatched, new or missing image is a
/// `<failure>` (the assertion failed); an unreadable one is an `<error>` (the test could not
/// run). The failure's `message` is the one-line summary, its text the details.
public enum JUnitReport {
    /// The document.
    public static func xml(_ report: FolderReport) -> String {
        let failures = report.images.filter { $0.status.fails && $0.status != .unreadable }.count
        let errors = report.count(.unreadable)
        let suite = "forcezoom compare \(report.expected) \(report.actual)"
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let counts = "tests=\"\(report.images.count)\" failures=\"\(failures)\" errors=\"\(errors)\""
        out += "<testsuites name=\"forcezoom compare\" \(counts)>\n"
        out += "  <testsuite name=\"\(escape(suite))\" \(counts) skipped=\"0\">\n"
        for image in report.images {
            out += "    <testcase classname=\"forcezoom.compare\" name=\"\(escape(image.pair.key))\""
            guard image.status.fails else {
                out += "/>\n"
                continue
            }
            let element = image.status == .unreadable ? "error" : "failure"
            out += ">\n      <\(element) type=\"\(image.status.rawValue)\" message=\"\(escape(image.summary))\">"
            out += escape(details(image, report))
            out += "</\(element)>\n    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// The failure's text: the two files and the measures.
    private static func details(_ image: FolderImage, _ report: FolderReport) -> String {
        var lines: [String] = []
        if let e = image.pair.expected { lines.append("expected: \(FileSystem.join(report.expected, e))") }
        if let a = image.pair.actual { lines.append("actual: \(FileSystem.join(report.actual, a))") }
        if let s = image.expectedSize { lines.append("expected size: \(s)") }
        if let s = image.actualSize { lines.append("actual size: \(s)") }
        if let m = image.measures { lines.append(m.details) }
        if let message = image.message { lines.append(message) }
        return lines.joined(separator: "\n")
    }

    /// Text for an XML attribute or element: the five entities escaped, and the characters
    /// XML 1.0 forbids (controls other than tab, newline, carriage return; unpaired
    /// surrogates cannot occur in a Swift string) written as U+FFFD, so any file name gives
    /// a document a parser accepts.
    package static func escape(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out += "&#\(scalar.value);"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
