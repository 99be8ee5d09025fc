import FZFormat
import FZSystem
import Geometry

extension CropOperation {
    /// The geometry record printed by `crop --json` and `--geometry-only` (and for each
    /// peek `peek` saves): the point, the square, where it lies in the stored and the
    /// upright image, and with `view` the preview box in the view.
    public static func geometryJSON(
        _ g: PeekGeometry, header: ImageHeader, requested: String, view: PixelSize?, output: String?, bytes: Int64?,
        path: String, depth: Int? = nil, where place: JSON? = nil
    ) -> JSON {
        var members: [(String, JSON)] = [
            ("input", .string(path)),
            ("format", .string(header.formatName)),
            // Stored: as the file stores the pixels, before the orientation (HEIF: the coded
            // size, before irot/imir/clap), as info's width/height; upright: as displayed.
            ("storedSize", header.codedSize.json),
            ("uprightSize", header.uprightSize.json),
            ("orientation", .int(header.orientation.rawValue)),
            ("requested", .string(requested)),
            ("point", .object([("x", .int(g.point.x)), ("y", .int(g.point.y))])),
            ("side", .int(g.side)),
            ("zoom", .number(g.zoom)),
            ("cropRect", g.coveredRect.json),
            ("window", g.window.json),
            ("shift", .object([("x", .number(g.shiftX)), ("y", .number(g.shiftY))])),
            ("normalizedRect", g.normalizedRect.json),
            ("storedRect", header.storedRect(forUpright: g.coveredRect).json),
        ]
        if let place { members.append(("where", place)) }
        if let v = view {
            let fit = AspectFit(image: header.uprightSize, view: v)
            members.append(
                (
                    "view",
                    .object([
                        ("size", v.json), ("scale", .number(fit.scale)), ("imageRect", fit.imageRect.json),
                        ("previewBox", fit.viewRect(forImage: g.window).json),
                    ])
                ))
        }
        if let output { members.append(("output", .string(output))) }
        if let bytes { members.append(("bytes", .int(bytes))) }
        if output != nil { members.append(("bitDepth", .int(depth ?? 8))) }
        return JSON.record(members)
    }
}
