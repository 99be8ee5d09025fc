import Testing

@testable import FZFixtures
@testable import FZImage

/// The kit's plan and pieces, in process: the HEIF transformations' EXIF equivalents (the
/// kit's HEIC files are then checked by heif-convert in FixtureKitCLITests), the profiles
/// lcms2 reads, the references' sizes.
struct KitPlanTests {
    /// irot (anticlockwise) then imir (0 top-bottom, 1 left-right, as libheif reads it).
    @Test func heifTransformationsAsEXIF() {
        let cases: [(Int, Int?, Int)] = [
            (0, nil, 1), (90, nil, 8), (180, nil, 3), (270, nil, 6), (0, 0, 4), (0, 1, 2), (90, 0, 5), (90, 1, 7),
            (180, 0, 2), (270, 1, 5),
        ]
        for (irot, imir, exif) in cases {
            #expect(
                FixtureWriter.heifOrientation(rotation: irot, mirror: imir).rawValue == exif,
                "irot \(irot) imir \(String(describing: imir))")
        }
        // The orientation set's eight HEIC files cover the eight orientations.
        let heic = KitPlan.entries(for: [.orientation]).filter {
            $0.encoding.heic && $0.encoding.exifOrientation == nil
        }
        #expect(Set(heic.map(\.storedOrientation.rawValue)) == Set(1...8))
    }

    @Test func profilesAreReadByLCMS() {
        for p in KitProfile.allCases {
            let bytes = p.bytes
            #expect(ColorTransform.readProblem(with: bytes) == nil, "\(p.rawValue)")
            #expect(ICCProfile(bytes)?.colorSpace == (p.isGray ? "GRAY" : "RGB"), "\(p.rawValue)")
            #expect(
                bytes.count % 4 == 0
                    && Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3]) == bytes.count)
        }
    }

    /// A reference is what a tag-honouring reader shows: the wrongly tagged files' is turned.
    @Test func referencesAreUpright() {
        for e in KitPlan.entries(for: KitSet.allCases) {
            let r = KitWriter.render(e.reference)
            let shown = e.reference.turn.uprightSize(ofStored: e.pattern.size)
            #expect(r.size == shown, "\(e.path)")
            #expect(e.storedOrientation.uprightSize(ofStored: e.storedSize) == e.pattern.size, "\(e.path)")
        }
        let tagged = KitPlan.entries(for: [.orientation]).filter { $0.encoding.exifTagOnly }
        #expect(
            tagged.count == 3
                && tagged.allSatisfy { $0.storedSize == $0.pattern.size && $0.reference.turn == .rotate90 })
    }
}
