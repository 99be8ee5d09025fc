/// What a photo's XMP says of a motion clip: Google's `Container:Directory` items or the older
/// `GCamera:MicroVideo` fields. Read as text (attributes or elements, any prefix), since
/// cameras write both forms and exiftool rewrites one as the other.
enum MotionXMP {
    /// Why a clip the XMP announces cannot be where it says.
    struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    /// The most directory items read: a phone writes two or three; a packet claiming more is
    /// not a motion photo forcezoom believes.
    static let maxItems = 64
    /// The largest packet scanned (JPEG's standard XMP is under 64 KiB).
    static let maxBytes = 1 << 22

    /// The clip the packet announces (nil when it announces none), placed in a file of
    /// `fileLength` bytes.
    static func clip(_ xmp: [UInt8], fileLength: Int) -> Result<MotionClip, Failure>? {
        guard xmp.count <= maxBytes else { return nil }
        let text = Substring(String(decoding: xmp, as: UTF8.self))
        if let items = directoryItems(text) {
            guard items.count <= maxItems else {
                return .failure(Failure("the motion photo XMP lists more than \(maxItems) items"))
            }
            if let i = items.firstIndex(where: { field("Semantic", in: $0) == "MotionPhoto" }) {
                return containerClip(items, motion: i, fileLength: fileLength)
            }
        }
        if field("MicroVideo", in: text) == "1" {
            guard let back = field("MicroVideoOffset", in: text).flatMap(number), back > 0 else {
                return .failure(Failure("GCamera:MicroVideo is set without a MicroVideoOffset"))
            }
            guard back <= fileLength else {
                return .failure(
                    Failure("GCamera:MicroVideoOffset \(back) is more than the file's \(fileLength) bytes"))
            }
            return .success(MotionClip(source: .microVideo, offset: fileLength - back, length: back))
        }
        return nil
    }

    /// The clip of item `motion`: the items after the primary are laid end to end at the end
    /// of the file, each preceded by its padding.
    static func containerClip(_ items: [Substring], motion: Int, fileLength: Int) -> Result<MotionClip, Failure> {
        guard motion > 0 else { return .failure(Failure("the motion photo XMP's MotionPhoto item is its primary")) }
        var back = 0
        var length = 0
        for k in stride(from: items.count - 1, through: motion, by: -1) {
            guard let l = field("Length", in: items[k]).flatMap(number), l > 0 else {
                return .failure(Failure("the motion photo XMP's item \(k + 1) has no Item:Length"))
            }
            let padding = k == motion ? 0 : field("Padding", in: items[k]).flatMap(number) ?? 0
            back += l + padding
            if k == motion { length = l }
            // Lengths are at most 18 digits: the sum of 64 cannot overflow, but it can pass the file.
            if back > fileLength {
                return .failure(
                    Failure("the motion photo XMP's items take \(back) bytes, more than the file's \(fileLength)"))
            }
        }
        return .success(MotionClip(source: .googleContainer, offset: fileLength - back, length: length))
    }

    /// The `Item` elements of the first `Directory` (each from its start tag to its end, or
    /// the start tag alone when empty); nil when there is no directory. At most `maxItems + 1`.
    static func directoryItems(_ text: Substring) -> [Substring]? {
        guard let dir = text.firstRange(of: ":Directory") else { return nil }
        var rest = text[dir.upperBound...]
        if let close = rest.firstRange(of: ":Directory>") { rest = rest[..<close.lowerBound] }
        var items: [Substring] = []
        while items.count <= maxItems, let found = rest.firstRange(of: ":Item") {
            // A start tag: `<Prefix:Item` then a space, `>` or `/`.
            let after = rest[found.upperBound...]
            let opener = rest[..<found.lowerBound].lastIndex(of: "<")
            guard let next = after.first, next == " " || next == ">" || next == "/" || next == "\n" || next == "\t",
                let opener, !rest[opener..<found.lowerBound].contains(" "), rest[rest.index(after: opener)] != "/"
            else {
                rest = after
                continue
            }
            guard let tagEnd = after.firstIndex(of: ">") else { break }
            let empty = rest[rest.index(before: tagEnd)] == "/"
            var end = rest.index(after: tagEnd)
            if !empty,
                let close = rest[end...].firstRange(of: rest[opener..<found.upperBound].replacingOccurrences("<", "</"))
            {
                end = close.upperBound
            }
            items.append(rest[opener..<end])
            rest = rest[end...]
        }
        return items
    }

    /// The value of a field named `name` (any prefix): an attribute `p:name="v"` or `'v'`, or an
    /// element `<p:name>v</p:name>`.
    static func field(_ name: String, in text: Substring) -> String? {
        var rest = text
        while let r = rest.firstRange(of: ":" + name) {
            let after = rest[r.upperBound...]
            rest = after
            guard let c = after.first else { return nil }
            if c == "=", let q = after.dropFirst().first, q == "\"" || q == "'" {
                let value = after.dropFirst(2)
                guard let close = value.firstIndex(of: q) else { return nil }
                return String(value[..<close]).trimmingWhitespace
            }
            if c == ">" {
                let value = after.dropFirst()
                guard let close = value.firstIndex(of: "<") else { return nil }
                return String(value[..<close]).trimmingWhitespace
            }
        }
        return nil
    }

    /// A decimal count of at most 18 digits.
    static func number(_ s: String) -> Int? {
        guard !s.isEmpty, s.count <= 18, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(s)
    }
}

extension Substring {
    /// The text with each `a` replaced by `b` (Foundation-free).
    fileprivate func replacingOccurrences(_ a: Character, _ b: String) -> String {
        var out = ""
        for c in self { if c == a { out += b } else { out.append(c) } }
        return out
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
