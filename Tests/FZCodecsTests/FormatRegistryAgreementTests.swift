import FZCodecs
import FZFormat
import FZGainMap
import FZSystem
import TestSupport
import Testing

/// What the registries say about each format is what the rest of the house says: the JSON
/// schemas' format lists, the file classifier's lists of formats we do not read, and the
/// abilities the reader and writer act on. A list kept by hand that drifts from the
/// registry fails here.
struct FormatRegistryAgreementTests {
    /// The `enum` of `properties.<field>` in a schema under docs/json.
    static func schemaEnum(_ schema: String, _ field: String) throws -> Set<String> {
        let text = try FileSystem.readText(TestSupport.path("docs/json/\(schema).schema.json"))
        let root = try #require(JSONValue.object(text))
        guard case .object(let properties)? = root["properties"], case .object(let property)? = properties[field],
            case .array(let values)? = property["enum"]
        else {
            Issue.record("\(schema).schema.json has no enum for \(field)")
            return []
        }
        return Set(values.compactMap { if case .string(let s) = $0 { return s } else { return nil } })
    }

    @Test func infoSchemaListsEveryReportedName() throws {
        let registry = Set(FormatRegistry.inputs.flatMap(\.reportedNames))
        #expect(try Self.schemaEnum("info", "format") == registry)
    }

    /// crop's `format` is its input's, as info's is: a crop of a GIF, TIFF, RAW or video
    /// says so (the schema listed only the formats forcezoom writes, and refused them).
    @Test func cropSchemaListsEveryReportedName() throws {
        let registry = Set(FormatRegistry.inputs.flatMap(\.reportedNames))
        #expect(try Self.schemaEnum("crop", "format") == registry)
    }

    /// A name the classifier calls "an image forcezoom does not read" must be no decoder's.
    @Test func unreadListsNameNoDecodersExtension() {
        let claimed = FormatRegistry.inputExtensions
        #expect(FileContent.otherImageExtensions.isDisjoint(with: claimed))
        #expect(FileContent.rawExtensions.isDisjoint(with: claimed))
        #expect(FileContent.videoExtensions.isDisjoint(with: claimed))
    }

    /// The gain-map capability a decoder registers is the one `ImageReader` acts on (the
    /// decoder conforms to `GainMapProbing`).
    @Test func gainMapCapabilityIsTheProbe() {
        for decoder in ImageDecoders.all {
            let declared = decoder.registration.capabilities.contains(.gainMaps)
            #expect(declared == (decoder is any GainMapProbing.Type), "\(decoder.registration.names)")
            let listed = GainMapProbers.all.contains { ObjectIdentifier($0) == ObjectIdentifier(decoder) }
            #expect(declared == listed, "\(decoder.registration.names): GainMapProbers.all")
        }
    }

    /// Exactly one format reads moving pictures, the video decoder, and `info` asks that
    /// ability (whether a movie is a Live Photo part), never the format's name.
    @Test func movingPicturesAreTheVideoDecoder() {
        let moving = FormatRegistry.inputs.filter { $0.capabilities.contains(.movingPictures) }
        #expect(moving.count == 1, "\(moving.map(\.names))")
        #expect(moving.allSatisfy { Set($0.extensions).isSuperset(of: ["mp4", "mov"]) })
    }

    /// The writer's gain-map decisions come from the encoders' declared abilities: exactly the
    /// formats that declare an HDR rendition render one, and a carrier of each kind exists.
    @Test func writerAsksTheAbilities() {
        for format in OutputFormat.all {
            #expect(ImageWriter.rendersHDR(format) == (format.hdrRendition != .none), "\(format)")
            #expect(ImageWriter.carriesGainMap(format) == format.gainMaps.contains(.ultraHDR), "\(format)")
        }
        #expect(OutputFormat.all.contains { $0.gainMaps.contains(.ultraHDR) })
        #expect(OutputFormat.all.contains { $0.gainMaps.contains(.appleAuxiliary) })
    }

    /// Every name a decoder reports is one the schema's readers know, and every decoder's
    /// extensions are its own (the walker and the warm-up look a name up by them).
    @Test func extensionsBelongToOneDecoder() {
        let all = FormatRegistry.inputs.flatMap(\.extensions)
        #expect(Set(all).count == all.count, "\(all)")
        #expect(all.allSatisfy { $0 == $0.lowercased() && !$0.hasPrefix(".") })
    }
}
