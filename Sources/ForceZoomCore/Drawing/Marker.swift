/// A map pin at an image point, optionally labelled.
public struct Marker: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var label: String?

    public init(x: Double, y: Double, label: String? = nil) {
        self.x = x
        self.y = y
        self.label = label
    }

    /// Why a marker list could not be read.
    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// A CSV line that is not `x,y[,label]`.
        case badLine(file: String, line: Int, text: String)
        /// JSON that is not an array of `{"x":..,"y":..,"label":..}` or `[x, y]`.
        case badJSON(file: String, reason: String)

        public var description: String {
            switch self {
            case .badLine(let f, let n, let t): return "\(f): line \(n): expected x,y[,label], got '\(t)'"
            case .badJSON(let f, let r): return "\(f): \(r) (expected a JSON array of {\"x\":..,\"y\":..,\"label\":..} or [x,y])"
            }
        }
    }

    /// Parses a marker file: a JSON array, or CSV lines `x,y[,label]` (blank lines and
    /// lines starting with # are skipped; a header line `x,y,...` is allowed).
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - file: its name, for messages.
    public static func parseList(_ text: String, file: String) throws(ParseError) -> [Marker] {
        let trimmed = text.drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        if trimmed.first == "[" {
            var parser = MiniJSON(Array(text.utf8))
            guard let value = parser.parse(), case .array(let items) = value else {
                throw .badJSON(file: file, reason: "not a JSON array")
            }
            var out: [Marker] = []
            for (i, item) in items.enumerated() {
                switch item {
                case .array(let a) where a.count >= 2:
                    guard case .number(let x) = a[0], case .number(let y) = a[1] else { throw .badJSON(file: file, reason: "item \(i + 1) is not [x, y]") }
                    out.append(Marker(x: x, y: y))
                case .object(let o):
                    guard case .number(let x)? = o["x"], case .number(let y)? = o["y"] else {
                        throw .badJSON(file: file, reason: "item \(i + 1) lacks numeric x and y")
                    }
                    var label: String?
                    if case .string(let s)? = o["label"] { label = s }
                    out.append(Marker(x: x, y: y, label: label))
                default: throw .badJSON(file: file, reason: "item \(i + 1) is neither an object nor [x, y]")
                }
            }
            return out
        }
        var out: [Marker] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let t = line.trimmingSpaces
            if t.isEmpty || t.hasPrefix("#") { continue }
            let parts = t.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
            if n == 0, parts.count >= 2, parts[0].trimmingSpaces.lowercased() == "x" { continue }
            guard parts.count >= 2, let x = Double(parts[0].trimmingSpaces), let y = Double(parts[1].trimmingSpaces),
                  x.isFinite, y.isFinite else {
                throw .badLine(file: file, line: n + 1, text: String(t))
            }
            let label = parts.count > 2 ? String(parts[2].trimmingSpaces) : nil
            out.append(Marker(x: x, y: y, label: label?.isEmpty == true ? nil : label))
        }
        return out
    }
}

/// Draws pins. The map-pin rule: a pin is the same size in output pixels whatever the
/// image's scale (its size is corrected by the inverse of the scale), and its tip sits
/// exactly on the transformed image point.
public enum PinRenderer {
    /// Pin body radius in output pixels.
    public static let radius = 7.0
    /// Tip-to-centre distance in output pixels.
    public static let height = 20.0

    /// The output pixels a pin with its tip at (tx, ty) may touch.
    public static func bounds(tipX tx: Double, tipY ty: Double, size: Double = 1) -> PixelRect {
        let r = radius * size, h = height * size
        let x0 = Int((tx - r - 2).rounded(.down)), y0 = Int((ty - h - r - 2).rounded(.down))
        return PixelRect(x: x0, y: y0, width: Int(2 * r + 5), height: Int(h + r + 5))
    }

    /// Draws one pin (and its label) with its tip at (tx, ty) in output pixels.
    /// - Parameter size: 1 for the standard pin; animations pass other sizes when the zoom
    ///   leaves --pin-scale-range.
    public static func draw(on image: inout Image, tipX tx: Double, tipY ty: Double, label: String?,
                            color: Color = Color(r: 230, g: 40, b: 40), size: Double = 1) {
        let radius = Self.radius * size, height = Self.height * size
        let area = bounds(tipX: tx, tipY: ty, size: size)
        guard !area.intersection(PixelRect(size: image.size)).isEmpty else { return }
        let cx = tx, cy = ty - height
        // A circle plus a triangle whose apex is the tip and whose sides are tangent-ish.
        func inside(_ x: Double, _ y: Double) -> Bool {
            let dx = x - cx, dy = y - cy
            if dx * dx + dy * dy <= radius * radius { return true }
            guard y >= cy && y <= ty else { return false }
            let half = radius * 0.8 * (ty - y) / (ty - cy)
            return abs(x - tx) <= half
        }
        let outline = Coverage.shape(over: area) { x, y in
            let dx = x - cx, dy = y - cy
            if dx * dx + dy * dy <= (radius + 1.2) * (radius + 1.2) { return true }
            guard y >= cy && y <= ty + 1 else { return false }
            return abs(x - tx) <= radius * 0.8 * (ty + 1.5 - y) / (ty - cy) + 0.9
        }
        image.paint(Color(r: 0, g: 0, b: 0, a: 200), coverage: outline, in: area)
        image.paint(color, coverage: Coverage.shape(over: area, inside: inside), in: area)
        let hole = Coverage.shape(over: area) { x, y in
            let dx = x - cx, dy = y - cy
            return dx * dx + dy * dy <= (radius * 0.35) * (radius * 0.35)
        }
        image.paint(.white, coverage: hole, in: area)
        if let label, !label.isEmpty {
            let font = BitmapFont.standard
            let s = font.size(of: label, scale: 1)
            let lx = Int((cx + radius + 3).rounded()), ly = Int((cy - Double(s.height) / 2).rounded())
            let box = PixelRect(x: lx - 2, y: ly - 2, width: s.width + 4, height: s.height + 4)
            image.paint(Color(r: 255, g: 255, b: 255, a: 220), coverage: [Float](repeating: 1, count: box.width * box.height), in: box)
            image.draw(label, x: lx, y: ly, scale: 1, color: .black)
        }
    }

    /// Draws every marker whose image point maps inside the output; the rest are skipped.
    /// - Parameters:
    ///   - markers: image points.
    ///   - transform: image coordinates to output coordinates.
    public static func draw(_ markers: [Marker], on image: inout Image, transform: AffineTransform, size: Double = 1) {
        for m in markers {
            let p = transform.apply(x: m.x, y: m.y)
            guard p.x >= 0, p.y >= 0, p.x <= Double(image.width), p.y <= Double(image.height) else { continue }
            draw(on: &image, tipX: p.x, tipY: p.y, label: m.label, size: size)
        }
    }
}
