import Geometry

/// An XMP packet (RDF/XML) split into tokens so an output's copy can be edited: the
/// orientation set to 1, the pixel dimensions changed, the location properties taken out.
/// Everything else is written back byte for byte.
///
/// Not a full XML parser, on purpose: a bounded tokenizer (tags, attributes, text,
/// comments, CDATA, processing instructions) that checks the tags nest and refuses what
/// XMP never has (a DOCTYPE, so no entity can expand). Names are resolved as XML scopes
/// namespaces (`XMPNamespaces`), so `exif:GPSLatitude` is found under any prefix, one
/// redeclared on an inner element, or the default namespace.
public struct XMPPacket: Hashable, Sendable {
    /// The largest packet read.
    public static let maxBytes = 1 << 22

    package enum Token: Hashable, Sendable {
        /// Text, comments, CDATA, processing instructions: written back as they were.
        case raw([UInt8])
        case start(name: String, attributes: [Attribute], selfClosing: Bool)
        case end(name: String)
    }

    package struct Attribute: Hashable, Sendable {
        var name: String
        package var value: String
        /// The quote it was written with.
        var quote: UInt8
    }

    /// A start token's names in its namespace scope (nil where a prefix is undeclared).
    package struct Resolved: Hashable, Sendable {
        package var element: XMPNamespaces.Name?
        package var attributes: [XMPNamespaces.Name?]
    }

    package var tokens: [Token]
    /// Per token, its resolved names (start tokens only).
    package let names: [Resolved?]

    package static let tiff = "http://ns.adobe.com/tiff/1.0/", exif = "http://ns.adobe.com/exif/1.0/"

    /// Parses a packet.
    /// - Throws: `XMPError` for what is not well-formed XML with an rdf:RDF element.
    public init(parsing bytes: [UInt8]) throws(XMPError) {
        guard bytes.count <= Self.maxBytes else { throw .malformed("larger than \(Self.maxBytes >> 20) MiB") }
        var scanner = XMPScanner(bytes)
        tokens = try scanner.tokens()
        var sawRDF = false
        for case .start(let name, _, _) in tokens where name.hasSuffix(":RDF") { sawRDF = true }
        guard sawRDF else { throw .malformed("no rdf:RDF element") }
        names = XMPNamespaces.resolved(tokens)
    }

    /// Whether a property says where the picture was taken.
    package static func isLocation(_ name: XMPNamespaces.Name?) -> Bool {
        name.map(XMPLocation.contains) ?? false
    }

    /// The new value of a property the output changes, or nil.
    package static func replacement(_ name: XMPNamespaces.Name?, size: PixelSize, upright: Bool) -> String? {
        guard let name else { return nil }
        switch (name.uri, name.local) {
        case (tiff, "Orientation"): return upright ? "1" : nil
        case (tiff, "ImageWidth"), (exif, "PixelXDimension"): return String(size.width)
        case (tiff, "ImageLength"), (exif, "PixelYDimension"): return String(size.height)
        default: return nil
        }
    }

    /// Whether a location property is present.
    public var hasLocation: Bool {
        names.contains { r in
            guard let r else { return false }
            return Self.isLocation(r.element) || r.attributes.contains(where: Self.isLocation)
        }
    }

    /// The packet for an output of `size` pixels: location properties left out unless
    /// `location`, the orientation and dimensions replaced. A replaced property's whole
    /// content (text, CDATA, comments) gives way to the new value, so `<![CDATA[6]]>`
    /// cannot linger beside it.
    /// With `edit`, the elements it names are left out too, and its XML written just before
    /// `rdf:RDF` closes (the regions of an output, `CarriedRegions`).
    public func rewritten(size: PixelSize, upright: Bool, location: Bool, edit: Edit = Edit()) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(tokens.count * 16)
        var skipDepth = 0  // > 0 inside a dropped element, or a replaced one's content
        var closeSkipped = false  // whether the skipped element's end tag is written (replaced)
        let rdfEnd =
            edit.insert == nil
            ? nil
            : tokens.lastIndex { t in
                if case .end(let name) = t { return name == "RDF" || name.hasSuffix(":RDF") }
                return false
            }
        for (index, (token, resolved)) in zip(tokens, names).enumerated() {
            switch token {
            case .raw(let bytes):
                if skipDepth == 0 { out += bytes }
            case .start(let name, let attributes, let selfClosing):
                if skipDepth > 0 {
                    if !selfClosing { skipDepth += 1 }
                    continue
                }
                if (!location && Self.isLocation(resolved?.element))
                    || resolved?.element.map(edit.drop.contains) == true
                {
                    if !selfClosing { (skipDepth, closeSkipped) = (1, false) }
                    continue
                }
                out += Array("<\(name)".utf8)
                for (a, aName) in zip(attributes, resolved?.attributes ?? []) where location || !Self.isLocation(aName)
                {
                    let value = Self.replacement(aName, size: size, upright: upright) ?? a.value
                    out += Array(" \(a.name)=".utf8) + [a.quote] + Array(value.utf8) + [a.quote]
                }
                out += Array((selfClosing ? "/>" : ">").utf8)
                if !selfClosing, let value = Self.replacement(resolved?.element, size: size, upright: upright) {
                    out += Array(value.utf8)
                    (skipDepth, closeSkipped) = (1, true)
                }
            case .end(let name):
                if skipDepth > 0 {
                    skipDepth -= 1
                    guard skipDepth == 0, closeSkipped else { continue }
                }
                if index == rdfEnd, let insert = edit.insert { out += insert }
                out += Array("</\(name)>".utf8)
            }
        }
        return out
    }

    /// What `rewritten` changes besides the orientation, the size and the location.
    public struct Edit: Hashable, Sendable {
        /// Elements left out with everything inside them.
        package var drop: Set<XMPNamespaces.Name> = []
        /// XML written before `rdf:RDF` closes.
        package var insert: [UInt8]?

        public init() {}
    }
}

/// Why an XMP packet was left out.
public enum XMPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not well-formed, or not XMP.
    case malformed(String)

    public var description: String {
        switch self {
        case .malformed(let why): return "XMP packet is malformed (\(why))"
        }
    }
}

extension XMPPacket {
    /// The packet without the properties of `namespaces`: their attributes, and their elements
    /// with everything inside. Everything else byte for byte, as `rewritten` writes it.
    package func removing(namespaces: Set<String>) -> [UInt8] {
        var out: [UInt8] = []
        var skipDepth = 0
        func dropped(_ n: XMPNamespaces.Name?) -> Bool { n.map { namespaces.contains($0.uri) } ?? false }
        for (token, resolved) in zip(tokens, names) {
            switch token {
            case .raw(let bytes):
                if skipDepth == 0 { out += bytes }
            case .start(let name, let attributes, let selfClosing):
                if skipDepth > 0 || dropped(resolved?.element) {
                    if !selfClosing { skipDepth += 1 }
                    continue
                }
                out += Array("<\(name)".utf8)
                for (a, aName) in zip(attributes, resolved?.attributes ?? []) where !dropped(aName) {
                    out += Array(" \(a.name)=".utf8) + [a.quote] + Array(a.value.utf8) + [a.quote]
                }
                out += Array((selfClosing ? "/>" : ">").utf8)
            case .end(let name):
                if skipDepth > 0 {
                    skipDepth -= 1
                    continue
                }
                out += Array("</\(name)>".utf8)
            }
        }
        return out
    }
}
