import FZFormat
import FZImage
import FZMetadata
import FZSystem
import Geometry

/// Where a `Where` lands in one image: the upright pixel to centre on, the area to show
/// whole (a region, the faces), and the record `--json` prints of why (`"where"`).
public struct Placement: Sendable {
    public var point: PixelPoint
    /// The region or faces shown, in upright pixels; nil for a point or a score.
    public var area: Rect?
    /// `{"by":"region","name":..,"rect":{..}}`, `{"by":"attention","x":..,"y":..,"score":..}`...
    public var record: JSON
    /// With `explain`, for attention and entropy: the scores as a heat map (`InterestMap.heatMap`).
    public var explanation: Image?

    /// The record with one more member at its end (`"explain":"map.png"`).
    public mutating func note(_ key: String, _ value: JSON) {
        if case .object(let members) = record { record = .object(members + [(key, value)]) }
    }
    /// The touch point for the geometry that places a crop (an exact upright pixel).
    public var touch: TouchPoint {
        TouchPoint(x: .absolute(Double(point.x)), y: .absolute(Double(point.y)))
    }
}

/// A `Where` the file cannot answer: a region it does not have, faces it has none of. Bad
/// usage for this file: exit 2, the message naming what it has.
public struct WhereError: ForceZoomError, Equatable, Sendable {
    public let message: String
    public var exitCode: Int32 { 2 }
    public var description: String { message }
}

public enum WhereResolver {
    /// Finds where `place` lands in an upright image of `upright` pixels.
    /// - Parameters:
    ///   - box: the window the caller shows, in upright pixels, when its size is fixed
    ///     (a thumbnail's box, `crop --size`); nil when it is sized to the area found.
    ///   - regions: the file's regions (read only for the words that need them).
    ///   - pixels: the reduced decode (`InterestMap.reducedSize`), for attention and entropy.
    ///   - explain: also make `explanation`, the heat map of the scores (attention, entropy).
    /// - Throws: `WhereError` for a region or faces the file lacks; what `pixels` throws.
    public static func resolve(
        _ place: Where, path: String, upright: PixelSize, box: (width: Double, height: Double)?,
        regions: () -> RegionReading, pixels: () throws -> Image, explain: Bool = false
    ) throws -> Placement {
        switch place {
        case .point(let t):
            let p = try t.resolve(in: upright)
            return Placement(
                point: p, area: nil, record: .object([("by", .string("point")), ("x", .int(p.x)), ("y", .int(p.y))]))
        case .center:
            let p = PixelPoint(x: upright.width / 2, y: upright.height / 2)
            return Placement(
                point: p, area: nil, record: .object([("by", .string("center")), ("x", .int(p.x)), ("y", .int(p.y))]))
        case .region(let name):
            let reading = regions()
            guard let r = reading.region(named: name) else {
                throw WhereError(
                    message:
                        "\(StandardStream.inputName(path)): has no region \(Echo.value(name)); \(Self.having(reading))")
            }
            let index = (reading.regions.firstIndex(of: r) ?? 0) + 1
            return Placement(
                point: centre(r.rect, upright), area: r.rect,
                record: .object([
                    ("by", .string("region")), ("name", r.name.map { .string($0) } ?? .null), ("index", .int(index)),
                    ("type", .string(r.type)), ("source", .string(r.source.rawValue)), ("rect", r.pixelRect.json),
                ]))
        case .face:
            let faces = regions().faces
            guard !faces.isEmpty else {
                throw WhereError(
                    message: "\(StandardStream.inputName(path)): has no face regions; \(Self.having(regions()))")
            }
            return framed(faces, upright: upright, box: box)
        case .attention:
            let faces = regions().faces
            if !faces.isEmpty { return framed(faces, upright: upright, box: box) }
            return try scored(.attention, upright: upright, box: box, pixels: pixels, explain: explain)
        case .entropy:
            return try scored(.entropy, upright: upright, box: box, pixels: pixels, explain: explain)
        }
    }

    /// What a file has, for a message about a region it lacks.
    static func having(_ reading: RegionReading) -> String {
        reading.regions.isEmpty
            ? "it has no regions in its metadata (give X,Y, attention, entropy or center)"
            : "it has " + reading.names.joined(separator: ", ")
    }

    static func centre(_ r: Rect, _ upright: PixelSize) -> PixelPoint {
        PixelPoint(
            x: min(upright.width - 1, max(0, Int((r.x + r.width / 2).rounded(.down)))),
            y: min(upright.height - 1, max(0, Int((r.y + r.height / 2).rounded(.down)))))
    }

    /// The faces together when they fit the box (or there is no box), else the largest.
    static func framed(_ faces: [ImageRegion], upright: PixelSize, box: (width: Double, height: Double)?) -> Placement {
        var all = faces[0].rect
        for f in faces.dropFirst() {
            let x0 = min(all.x, f.rect.x)
            let y0 = min(all.y, f.rect.y)
            all = Rect(x: x0, y: y0, width: max(all.maxX, f.rect.maxX) - x0, height: max(all.maxY, f.rect.maxY) - y0)
        }
        let fits = box.map { all.width <= $0.width && all.height <= $0.height } ?? true
        let shown = fits ? faces : [faces[0]]
        let area = fits ? all : faces[0].rect
        let rect = ImageRegion(name: nil, type: "face", source: .mwg, rect: area).pixelRect
        return Placement(
            point: centre(area, upright), area: area,
            record: .object([
                ("by", .string("face")), ("faces", .int(shown.count)),
                ("names", .array(shown.compactMap(\.name).map { .string($0) })), ("rect", rect.json),
            ]))
    }

    /// The best place for the box by the map's scores, with the runner-up (the best place
    /// outside the chosen box) and with `explain` the heat map of every place's score.
    static func scored(
        _ kind: InterestMap.Kind, upright: PixelSize, box: (width: Double, height: Double)?,
        pixels: () throws -> Image, explain: Bool
    ) throws -> Placement {
        let image = try pixels()
        let map = InterestMap(kind, of: image)
        let sx = Double(map.width) / Double(upright.width)
        let sy = Double(map.height) / Double(upright.height)
        let mapBox = box.map { ($0.width * sx, $0.height * sy) }
        let best = map.best(box: mapBox)
        func uprightPoint(_ x: Double, _ y: Double) -> PixelPoint {
            PixelPoint(x: min(upright.width - 1, max(0, Int(x / sx))), y: min(upright.height - 1, max(0, Int(y / sy))))
        }
        let p = uprightPoint(best.x, best.y)
        func rounded(_ v: Double) -> JSON { .number((v * 1000).rounded() / 1000) }
        let runner = map.runnerUp(box: mapBox, chosen: (best.x, best.y)).map { r -> JSON in
            let q = uprightPoint(r.x, r.y)
            return .object([("x", .int(q.x)), ("y", .int(q.y)), ("score", rounded(r.score))])
        }
        var placement = Placement(
            point: p, area: nil,
            record: .object([
                ("by", .string(kind.rawValue)), ("x", .int(p.x)), ("y", .int(p.y)), ("score", rounded(best.score)),
                ("max", rounded(kind == .attention ? map.maximum : best.score)), ("map", map.size.json),
                ("runnerUp", runner ?? .null),
            ]))
        if explain {
            placement.explanation = InterestMap.heatMap(
                map.placementScores(box: mapBox), width: map.width, height: map.height, scale: map.heatScale)
        }
        return placement
    }

    /// The reduced decode an interest map is made from: the whole upright image at
    /// `InterestMap.reducedSize`, from the file's embedded thumbnail when it has one that
    /// large and of the same shape (HEIF's `thmb`: the 12 MP iPhone HEIC's 320x240 costs a
    /// tile's decode, not the 48 tiles'), else from a reduced decode that uses `reader` up (a
    /// reader decodes once): then `consumed`, and the caller decodes its output through
    /// `reader.reopened()`.
    public static func reducedPixels(_ reader: ImageReader) throws -> (image: Image, consumed: Bool) {
        let target = InterestMap.reducedSize(of: reader.header.uprightSize)
        if target != reader.header.uprightSize, let thumb = try reader.readEmbeddedThumbnail(atLeast: target) {
            return (
                Resampler(source: thumb.size, output: target, format: thumb.format, filter: .box).resample(thumb), false
            )
        }
        return (try reader.readResampled(to: target, filter: .box, boxShrink: true).0, true)
    }
}

extension InterestMap {
    public var size: PixelSize { PixelSize(width: width, height: height) }
}
