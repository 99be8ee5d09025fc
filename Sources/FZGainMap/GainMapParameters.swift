import FZMetadata
import FZSystem

#if canImport(Glibc)
import Glibc
#endif

/// What a gain map's XMP says of it: Adobe's gain-map namespace (`hdrgm`, which Ultra HDR and
/// ISO 21496-1 share) or Apple's (`HDRGainMap`), read and checked.
///
/// hdrgm's values are in stops (log2) but the offsets; one value or three (a multi-channel
/// map's per-channel Seq). Defaults are the spec's: GainMapMin 0, Gamma 1, offsets 1/64,
/// HDRCapacityMin 0, BaseRenditionIsHDR false; Version, GainMapMax and HDRCapacityMax have none.
public struct GainMapParameters: Hashable, Sendable {
    public enum Scheme: String, Hashable, Sendable {
        /// Adobe's gain-map XMP (`http://ns.adobe.com/hdr-gain-map/1.0/`), as Ultra HDR writes it.
        case hdrgm
        /// Apple's (`http://ns.apple.com/HDRGainMap/1.0/`): a version and a headroom.
        case apple
    }

    public var scheme: Scheme
    public var version: String
    public var gainMapMin: [Double] = [0]
    public var gainMapMax: [Double] = [0]
    public var gamma: [Double] = [1]
    public var offsetSDR: [Double] = [1.0 / 64]
    public var offsetHDR: [Double] = [1.0 / 64]
    public var hdrCapacityMin: Double = 0
    public var hdrCapacityMax: Double = 0
    public var baseRenditionIsHDR = false
    /// Apple's HDRGainMapHeadroom (a ratio, not stops), when the scheme is Apple's.
    public var appleHeadroom: Double?

    static let hdrgm = "http://ns.adobe.com/hdr-gain-map/1.0/"
    static let apple = "http://ns.apple.com/HDRGainMap/1.0/"
    /// The most stops a value may hold: 2^32 is beyond any display (HDR screens reach 2^4).
    static let maxStops = 32.0

    public enum Failure: Error, Hashable, Sendable {
        /// The packet has no gain-map properties at all.
        case absent
        /// They are there but unusable: the text says which and why.
        case malformed(String)
    }

    /// Apple's map with nothing read yet (`setAppleHeadroom` completes it).
    package init(scheme: Scheme, version: String) {
        self.scheme = scheme
        self.version = version
    }

    /// Apple's headroom (a ratio) and what it means in hdrgm's terms: gain linear from 1 to it
    /// (as libultrahdr reads Apple's maps), no offsets.
    mutating func setAppleHeadroom(_ h: Double) {
        appleHeadroom = h
        gainMapMax = [log2(h)]
        hdrCapacityMax = log2(h)
        offsetSDR = [0]
        offsetHDR = [0]
    }

    /// Reads the gain-map properties of an XMP packet. An Apple packet without
    /// HDRGainMapHeadroom (iOS 14 to 17 wrote only the version) takes `makerNoteHeadroom`,
    /// derived from the image's Apple maker note (`AppleMakerNote`), when there is one.
    public init(xmp: [UInt8], makerNoteHeadroom: Double? = nil) throws(Failure) {
        guard let packet = try? XMPPacket(parsing: xmp) else { throw .absent }
        let props = Self.properties(packet)
        if let hdr = props[Self.hdrgm] {
            try self.init(hdrgm: hdr)
        } else if let a = props[Self.apple] {
            try self.init(apple: a, makerNoteHeadroom: makerNoteHeadroom)
        } else {
            throw .absent
        }
    }

    private init(hdrgm p: [String: [String]]) throws(Failure) {
        scheme = .hdrgm
        guard let v = p["Version"]?.first else { throw .malformed("hdrgm:Version is missing") }
        version = v
        func numbers(_ key: String, _ fallback: [Double]?) throws(Failure) -> [Double] {
            guard let texts = p[key] else {
                if let fallback { return fallback }
                throw .malformed("hdrgm:\(key) is missing")
            }
            guard texts.count == 1 || texts.count == 3 else {
                throw .malformed("hdrgm:\(key) has \(texts.count) values (1 or 3 expected)")
            }
            var out: [Double] = []
            for t in texts {
                guard let d = Double(t.trimmingWhitespace), d.isFinite, abs(d) <= Self.maxStops else {
                    throw .malformed("hdrgm:\(key) '\(t.prefix(40))' is not a number within ±\(Int(Self.maxStops))")
                }
                out.append(d)
            }
            return out
        }
        gainMapMin = try numbers("GainMapMin", [0])
        gainMapMax = try numbers("GainMapMax", nil)
        gamma = try numbers("Gamma", [1])
        offsetSDR = try numbers("OffsetSDR", [1.0 / 64])
        offsetHDR = try numbers("OffsetHDR", [1.0 / 64])
        hdrCapacityMin = try numbers("HDRCapacityMin", [0])[0]
        hdrCapacityMax = try numbers("HDRCapacityMax", nil)[0]
        baseRenditionIsHDR = p["BaseRenditionIsHDR"]?.first?.trimmingWhitespace.lowercased() == "true"
        try check()
    }

    private init(apple p: [String: [String]], makerNoteHeadroom: Double?) throws(Failure) {
        scheme = .apple
        version = p["HDRGainMapVersion"]?.first?.trimmingWhitespace ?? ""
        guard let t = p["HDRGainMapHeadroom"]?.first else {
            guard let makerNoteHeadroom else {
                throw .malformed("the gain map's headroom is missing (no HDRGainMapHeadroom, no Apple maker note 33)")
            }
            setAppleHeadroom(makerNoteHeadroom)
            return
        }
        guard let h = Double(t.trimmingWhitespace), h.isFinite, h >= 1, h <= 65536 else {
            throw .malformed("HDRGainMap:HDRGainMapHeadroom is not a ratio from 1 to 65536")
        }
        setAppleHeadroom(h)
    }

    /// The spec's constraints: max above min per channel, gamma positive, capacities ordered.
    private func check() throws(Failure) {
        let n = [gainMapMin.count, gainMapMax.count, gamma.count, offsetSDR.count, offsetHDR.count].max() ?? 1
        for c in 0..<n {
            func at(_ v: [Double]) -> Double { v.count == 1 ? v[0] : v[c] }
            if at(gainMapMax) < at(gainMapMin) {
                throw .malformed("hdrgm:GainMapMax \(at(gainMapMax)) is below GainMapMin \(at(gainMapMin))")
            }
            if !(at(gamma) > 0) { throw .malformed("hdrgm:Gamma \(at(gamma)) is not positive") }
            if !(0...1).contains(at(offsetSDR)) || !(0...1).contains(at(offsetHDR)) {
                throw .malformed("hdrgm:OffsetSDR/OffsetHDR must lie between 0 and 1")
            }
        }
        if hdrCapacityMin < 0 || hdrCapacityMax <= hdrCapacityMin {
            throw .malformed(
                "hdrgm:HDRCapacityMax \(hdrCapacityMax) is not above HDRCapacityMin \(hdrCapacityMin) >= 0")
        }
    }

    /// Per namespace URI, each property's values: an attribute's value, an element's text, or
    /// the texts of its rdf:li items.
    static func properties(_ packet: XMPPacket) -> [String: [String: [String]]] {
        var out: [String: [String: [String]]] = [:]
        let wanted: Set<String> = [hdrgm, apple]
        var open: (uri: String, local: String, depth: Int, texts: [String], inItem: Bool)?
        var depth = 0
        for (k, token) in packet.tokens.enumerated() {
            switch token {
            case .start(_, let attributes, let selfClosing):
                let resolved = packet.names[k]
                for (a, n) in zip(attributes, resolved?.attributes ?? []) {
                    if let n, wanted.contains(n.uri) { out[n.uri, default: [:]][n.local] = [a.value] }
                }
                if selfClosing { continue }
                depth += 1
                if open == nil, let e = resolved?.element, wanted.contains(e.uri) {
                    open = (e.uri, e.local, depth, [], false)
                } else if open != nil, resolved?.element?.local == "li" {
                    open?.inItem = true
                    open?.texts.append("")
                }
            case .end:
                if let o = open, o.depth == depth {
                    let texts = o.texts.isEmpty ? [] : o.texts
                    out[o.uri, default: [:]][o.local] = texts
                    open = nil
                } else if open != nil {
                    open?.inItem = false
                }
                depth -= 1
            case .raw(let bytes):
                guard var o = open else { continue }
                let text = String(decoding: bytes, as: UTF8.self)
                if o.inItem {
                    o.texts[o.texts.count - 1] += text
                } else if o.depth == depth, !text.trimmingWhitespace.isEmpty {
                    o.texts = [text]
                }
                open = o
            }
        }
        return out
    }
}
