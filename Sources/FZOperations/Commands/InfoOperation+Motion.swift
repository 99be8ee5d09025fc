import FZCodecs
import FZMetadata
import FZMotion
import FZSystem

/// What `info` says of moving pictures without decoding them (issue 50): a Live Photo's still
/// (its content identifier), a Live Photo's movie (the same identifier), and a motion photo's
/// embedded clip (where it is, how long it plays, its codec and size, as its MP4 says).
extension InfoOperation {
    /// The members and phrases a still adds, and what its XMP announced but does not hold.
    struct MotionFacts {
        var json: [(String, JSON)] = []
        var text: [String] = []
        var warnings: [String] = []
    }

    /// The Live Photo identifier in `metadata`'s EXIF, and the clip of a motion photo at `path`.
    static func motion(path: String, metadata: ImageMetadata, budget: Budget) -> MotionFacts {
        var facts = MotionFacts()
        if let id = metadata.exif.flatMap(LivePhotoIdentifier.fromEXIF) {
            facts.json.append(("livePhoto", .object([("role", .string("still")), ("contentIdentifier", .string(id))])))
            facts.text.append("Live Photo still, content identifier \(id)")
        }
        guard case .success(let file) = CFile.open(readingFrom: path), let window = ByteWindow(file: file) else {
            return facts
        }
        switch MotionPhoto.probe(xmp: metadata.xmp, window: window, budget: budget) {
        case .none: break
        case .found(let clip):
            facts.json.append(("motionPhoto", clipJSON(clip)))
            facts.text.append(clipText(clip))
        case .malformed(let why):
            facts.json.append(("motionPhotoIgnored", .string(why)))
            facts.warnings.append("motion photo clip ignored: \(why)")
            facts.text.append("motion photo clip announced but not found")
        }
        return facts
    }

    static func clipJSON(_ clip: MotionClip) -> JSON {
        let movie = clip.movie
        return .object([
            ("source", .string(clip.source.rawValue)), ("offset", .int(clip.offset)), ("length", .int(clip.length)),
            ("duration", movie?.duration.map { .number($0) } ?? .null),
            ("codec", movie?.video.map { .string($0.codec) } ?? .null),
            ("width", movie?.video.map { .int($0.width) } ?? .null),
            ("height", movie?.video.map { .int($0.height) } ?? .null),
        ])
    }

    static func clipText(_ clip: MotionClip) -> String {
        var what = ["motion photo clip"]
        if let d = clip.movie?.duration { what.append(seconds(d)) }
        if let v = clip.movie?.video { what.append("\(v.codec) \(v.width)x\(v.height)") }
        return what.joined(separator: " ") + ", \(clip.length) bytes at \(clip.offset) (\(clip.source.rawValue))"
    }

    static func seconds(_ d: Double) -> String {
        let tenths = (d * 100).rounded() / 100
        return "\(tenths) s"
    }

    /// The `livePhoto` member of a movie that is a Live Photo's motion part, nil for any other
    /// file: for a record of the movie made elsewhere (a video's, once videos are read).
    static func livePhotoMember(path: String, budget: Budget) -> (String, JSON)? {
        guard case .success(let file) = CFile.open(readingFrom: path), let window = ByteWindow(file: file),
            let id = MovieFacts.read(window, budget: budget)?.contentIdentifier
        else { return nil }
        return ("livePhoto", .object([("role", .string("motion")), ("contentIdentifier", .string(id))]))
    }

    /// A file no decoder reads that is a Live Photo's movie: its record and line, nil for any
    /// other file (which stays an error). The still is what forcezoom reads of the pair.
    static func livePhotoMovie(path: String, budget: Budget) -> (json: JSON, text: String)? {
        guard case .success(let file) = CFile.open(readingFrom: path), let window = ByteWindow(file: file),
            let movie = MovieFacts.read(window, budget: budget), let id = movie.contentIdentifier
        else { return nil }
        var members: [(String, JSON)] = [
            ("file", .string(path)),
            ("livePhoto", .object([("role", .string("motion")), ("contentIdentifier", .string(id))])),
        ]
        var movieMembers: [(String, JSON)] = [
            ("brand", movie.brand.map { .string($0) } ?? .null),
            ("duration", movie.duration.map { .number($0) } ?? .null),
        ]
        var text = "\(path): Live Photo motion part, content identifier \(id)"
        text += movie.brand.map { ", QuickTime brand '\($0)'" } ?? ""
        if let d = movie.duration { text += ", \(seconds(d))" }
        if let v = movie.video {
            movieMembers += [("codec", .string(v.codec)), ("width", .int(v.width)), ("height", .int(v.height))]
            text += ", \(v.codec) \(v.width)x\(v.height)"
        }
        members.append(("movie", .object(movieMembers)))
        return (JSON.record(members), text + " (a thumb batch with its still passes it over)")
    }
}
