import FZSystem

/// The fuzz harness's door into this target (Tools/fuzz, a package of its own, sees only
/// public symbols): every parser here fed the same bytes, as a movie, a photo with a clip,
/// a still's EXIF container, an Apple maker note and an XMP packet, within a small budget;
/// what each finds must lie inside the bytes.
public enum MotionFuzzing {
    public static func exercise(_ bytes: [UInt8]) {
        let window = ByteWindow(bytes: bytes)
        let budget = Budget(maxPixels: 0, maxBytes: 1 << 20)
        if let facts = MovieFacts.read(window, budget: budget), let id = facts.contentIdentifier {
            precondition(id.utf8.count <= LivePhotoIdentifier.maxLength, "an identifier longer than the limit")
        }
        for xmp in [nil, bytes] {
            if case .found(let clip) = MotionPhoto.probe(xmp: xmp, window: window, budget: budget) {
                precondition(clip.offset >= 0 && clip.offset + clip.length <= bytes.count, "a clip outside the file")
            }
        }
        if let tiff = StillEXIF.read(window, budget: budget) {
            precondition(tiff.count <= bytes.count, "EXIF larger than the file")
            _ = LivePhotoIdentifier.fromEXIF(tiff)
        }
        _ = LivePhotoIdentifier.fromMakerNote(bytes)
    }
}
