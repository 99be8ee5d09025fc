import Foundation
import Testing

@testable import FZGainMap

/// `GainMapMath` against the published formulas written out here again, and the Apple-to-hdrgm
/// restatement checked to mean the same gain for every stored sample.
@Suite("Gain map arithmetic")
struct GainMapMathTests {
    static func hdrgm(_ attributes: String) throws -> GainMapParameters {
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" hdrgm:Version="1.0" \(attributes)/>\
            </rdf:RDF></x:xmpmeta>
            """
        return try GainMapParameters(xmp: Array(xmp.utf8))
    }

    @Test func hdrgmSampleAndWeightFollowTheSpec() throws {
        let p = try Self.hdrgm(
            #"hdrgm:GainMapMin="-0.5" hdrgm:GainMapMax="2.5" hdrgm:Gamma="2.2" hdrgm:HDRCapacityMin="0.5" hdrgm:HDRCapacityMax="3""#
        )
        for k in 0...255 {
            let v = Double(k) / 255
            let expected = -0.5 + 3 * pow(v, 1 / 2.2)
            #expect(abs(p.log2Gain(v) - expected) < 1e-12)
            // Full weight at or above HDRCapacityMax, none at or below Min, linear in stops between.
            let shown = (0.25 + 1.0 / 64) * pow(2, expected * 0.6) - 1.0 / 64
            #expect(abs(p.apply(0.25, sample: v, weight: p.weight(displayStops: 2)) - shown) < 1e-12)
        }
        #expect(p.weight(displayStops: 4) == 1)
        #expect(p.weight(displayStops: 0) == 0)
        // The sample for 1x: recovery 1/6, through the gamma.
        #expect(abs(p.neutralSample() - pow(1.0 / 6, 2.2)) < 1e-12)
        #expect(abs(p.log2Gain(p.neutralSample())) < 1e-12)
    }

    @Test func baseRenditionIsHDRInvertsTheWeight() throws {
        let p = try Self.hdrgm(#"hdrgm:GainMapMax="2" hdrgm:HDRCapacityMax="2" hdrgm:BaseRenditionIsHDR="True""#)
        #expect(p.weight(displayStops: 2) == 0)
        #expect(p.weight(displayStops: 0) == 1)
    }

    @Test(arguments: [1.0, 1.5, 3.48, 8])
    func appleMapRestatedInHDRGM(headroom: Double) {
        var p = GainMapParameters(scheme: .apple, version: "1.0")
        p.setAppleHeadroom(headroom)
        let q = p.asHDRGM
        #expect(q.scheme == .hdrgm)
        for k in 0...255 {
            let v = Double(k) / 255
            // Apple's document: linear gain by Rec. 709's inverse OETF, HDR = SDR * (1 + (h - 1) * gain).
            let linear = v < 0.081 ? v / 4.5 : pow((v + 0.099) / 1.099, 1 / 0.45)
            let ratio = 1 + (headroom - 1) * linear
            #expect(abs(p.apply(0.5, sample: v, weight: 1) - 0.5 * ratio) < 1e-9)
            if headroom > 1 {
                #expect(abs(exp2(q.log2Gain(p.hdrgmSample(v))) - ratio) < 1e-9)
            }
        }
        #expect(p.neutralSample() == 0)
    }
}
