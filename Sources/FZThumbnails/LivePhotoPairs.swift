import FZCodecs
import FZMotion
import FZSystem

/// Live Photos as one item (issue 50): a batch's movie (`IMG_1234.MOV`) whose still
/// (`IMG_1234.HEIC` or `.JPG`) is in the same batch is passed over as the still's motion part,
/// so the pair makes one thumbnail and one named skip (`"category":"live-photo motion",
/// "of":"IMG_1234.HEIC"`), never a second thumbnail or a "video" skip.
///
/// Paired by Apple's content identifier where both have one (the still's maker-note tag
/// 0x0011, the movie's `com.apple.quicktime.content.identifier`): a movie is paired with the
/// still of its folder that carries its identifier, whatever the names. A movie or still
/// without one is paired by name (the same folder and stem); two different identifiers are
/// never paired. A movie whose still is not in the batch stays what it was (a video).
///
/// Runs on the walk's result, before the plan and any decoding, so it wins over however the
/// movie would otherwise be treated. It reads the movies' `moov` headers, and the EXIF of only
/// the stills a movie could pair with (same name, or the same folder when the names differ).
public enum LivePhotoPairs {
    /// Movie extensions a Live Photo's motion part has.
    static let movieExtensions: Set<String> = ["mov", "qt"]
    /// Still extensions a Live Photo's still has.
    static let stillExtensions: Set<String> = ["heic", "heif", "hif", "jpg", "jpeg"]

    /// `found` with every paired movie moved out of its inputs and skipped files into a
    /// `live-photo motion` skip naming its still.
    public static func pair(_ found: InputWalker.Collected, budget: Budget) -> InputWalker.Collected {
        var out = found
        let movieInputs = found.inputs.filter { isMovie($0.path) }
        let movieSkips = found.skipped.filter { $0.skip.category == .video && isMovie($0.input.path) }
        guard !movieInputs.isEmpty || !movieSkips.isEmpty else { return found }
        var stills = Stills(found.inputs.filter { stillExtensions.contains(ext($0.path)) }, budget: budget)
        var paired: [String: SkippedFile] = [:]
        for movie in movieInputs + movieSkips.map(\.input) {
            let id = movieIdentifier(movie.path, budget: budget)
            guard let (still, how) = stills.match(movie.path, identifier: id) else { continue }
            let said = how == .identifier ? "content identifier \(id ?? "")" : "the same name, no shared identifier"
            let skip = FileContent.Skip(
                .livePhotoMotion, "the motion part of the Live Photo \(Echo.value(still.path)), paired by \(said)")
            paired[movie.path] = SkippedFile(input: movie, skip: skip, of: still.path)
        }
        guard !paired.isEmpty else { return found }
        out.inputs = found.inputs.filter { paired[$0.path] == nil }
        out.skipped = found.skipped.map { paired.removeValue(forKey: $0.input.path) ?? $0 }
        // Movies named as inputs: in the order they were named.
        out.skipped += movieInputs.compactMap { paired[$0.path] }
        return out
    }

    static func ext(_ path: String) -> String { FileSystem.fileExtension(path).lowercased() }
    static func isMovie(_ path: String) -> Bool { movieExtensions.contains(ext(path)) }

    /// The movie's content identifier, nil when it has none or cannot be read.
    static func movieIdentifier(_ path: String, budget: Budget) -> String? {
        guard case .success(let file) = CFile.open(readingFrom: path), let w = ByteWindow(file: file) else {
            return nil
        }
        return MovieFacts.read(w, budget: budget)?.contentIdentifier
    }

    enum How { case identifier, name }

    /// The batch's stills by folder, their identifiers read when first asked for.
    struct Stills {
        let budget: Budget
        /// Per folder: the stills in order.
        var byFolder: [String: [ThumbnailPlan.Input]] = [:]
        var identifiers: [String: String?] = [:]
        var taken: Set<String> = []

        init(_ inputs: [ThumbnailPlan.Input], budget: Budget) {
            self.budget = budget
            for i in inputs { byFolder[FileSystem.directory(of: i.path), default: []].append(i) }
        }

        mutating func identifier(_ path: String) -> String? {
            if let known = identifiers[path] { return known }
            var id: String?
            if case .success(let file) = CFile.open(readingFrom: path), let w = ByteWindow(file: file) {
                id = LivePhotoIdentifier.ofStill(w, budget: budget)
            }
            identifiers[path] = id
            return id
        }

        /// The still a movie pairs with, and how; it is then taken.
        mutating func match(_ movie: String, identifier: String?) -> (ThumbnailPlan.Input, How)? {
            let folder = byFolder[FileSystem.directory(of: movie)] ?? []
            let stem = FileSystem.stem(movie).lowercased()
            let named = folder.filter { !taken.contains($0.path) && FileSystem.stem($0.path).lowercased() == stem }
            var found: (ThumbnailPlan.Input, How)?
            if let identifier {
                // The same name first (one EXIF read), then the rest of the folder.
                let rest = folder.filter { !taken.contains($0.path) && !named.contains($0) }
                if let s = (named + rest).first(where: { self.identifier($0.path) == identifier }) {
                    found = (s, .identifier)
                } else if let s = named.first(where: { self.identifier($0.path) == nil }) {
                    found = (s, .name)
                }
            } else if let s = named.first {
                found = (s, .name)
            }
            if let found { taken.insert(found.0.path) }
            return found
        }
    }
}
