/// XML namespaces for `XMPPacket`, resolved as XML scopes them: a declaration (`xmlns:p=`,
/// or `xmlns=` for the default namespace) holds on the element that makes it and inside
/// it, an inner one hides an outer one, an unprefixed element takes the default namespace
/// and an unprefixed attribute has none. A prefix redeclared later in the packet, or a
/// property in the default namespace, is then found for what it is.
package struct XMPNamespaces {
    /// A name resolved: its namespace URI and local part.
    package struct Name: Hashable, Sendable {
        package var uri: String
        package var local: String
    }

    package init() {}

    /// The declarations in force, prefix ("" for the default) to URI.
    private var current: [String: String] = ["xml": "http://www.w3.org/XML/1998/namespace"]
    /// Per open element, what its declarations replaced (nil: the prefix was undeclared):
    /// restored when it closes, so a lookup stays one dictionary read however deep.
    private var undo: [[(String, String?)]] = []

    /// Enters an element: its declarations take effect.
    package mutating func enter(_ attributes: [XMPPacket.Attribute]) {
        var replaced: [(String, String?)] = []
        for a in attributes {
            let prefix: String
            if a.name == "xmlns" {
                prefix = ""
            } else if a.name.hasPrefix("xmlns:") {
                prefix = String(a.name.dropFirst(6))
            } else {
                continue
            }
            replaced.append((prefix, current[prefix]))
            current[prefix] = a.value
        }
        undo.append(replaced)
    }

    /// Leaves the innermost element: its declarations end.
    package mutating func leave() {
        guard let replaced = undo.popLast() else { return }
        for (prefix, old) in replaced.reversed() { current[prefix] = old }
    }

    /// The namespace and local part of an element's (`element`) or attribute's name, or
    /// nil when its prefix is not declared (or, for an attribute, when it has none).
    package func resolve(_ name: String, element: Bool) -> Name? {
        guard let colon = name.firstIndex(of: ":") else {
            guard element, let uri = current[""], !uri.isEmpty else { return nil }
            return Name(uri: uri, local: name)
        }
        guard let uri = current[String(name[..<colon])], !uri.isEmpty else { return nil }
        return Name(uri: uri, local: String(name[name.index(after: colon)...]))
    }

    /// The names of every start token, resolved in their scopes (nil for other tokens).
    package static func resolved(_ tokens: [XMPPacket.Token]) -> [XMPPacket.Resolved?] {
        var scopes = XMPNamespaces()
        var out: [XMPPacket.Resolved?] = []
        out.reserveCapacity(tokens.count)
        for token in tokens {
            switch token {
            case .raw:
                out.append(nil)
            case .start(let name, let attributes, let selfClosing):
                scopes.enter(attributes)
                out.append(
                    XMPPacket.Resolved(
                        element: scopes.resolve(name, element: true),
                        attributes: attributes.map { scopes.resolve($0.name, element: false) }))
                if selfClosing { scopes.leave() }
            case .end:
                scopes.leave()
                out.append(nil)
            }
        }
        return out
    }
}

/// What `--no-location` takes out of XMP: exiftool's "Location" group (`-location:all`)
/// in the namespaces cameras, phones, drones and photo tools write.
package enum XMPLocation {
    static let exif = "http://ns.adobe.com/exif/1.0/"
    /// Nikon's "asteroid" namespace (GPS* as in exif).
    static let nikonAst = "http://ns.nikon.com/asteroid/1.0/"
    /// Sony Ericsson's cell tower properties: every one locates the phone.
    static let cell = "http://developer.sonyericsson.com/cell/1.0/"
    /// Google's Dynamic Depth poses (a device's, a camera's, a plane's, and its place on
    /// the earth): exiftool puts every property of these in Location.
    static let googlePoses: Set<String> = [
        "http://ns.google.com/photos/dd/1.0/pose/", "http://ns.google.com/photos/dd/1.0/earthpose/",
    ]

    /// Namespace URI to its location properties.
    static let properties: [String: Set<String>] = [
        "http://ns.adobe.com/photoshop/1.0/": ["City", "State", "Country"],
        "http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/": ["Location", "CountryCode"],
        "http://iptc.org/std/Iptc4xmpExt/2008-02-29/": ["LocationCreated", "LocationShown", "RatingRegion"],
        "http://www.dji.com/drone-dji/1.0/": [
            "GpsLatitude", "GpsLongitude", "GpsLongtitude", "Latitude", "Longitude", "AbsoluteAltitude",
            "RelativeAltitude", "RtkFlag", "RtkStdLat", "RtkStdLon", "RtkStdHgt", "FlightPitchDegree",
            "FlightRollDegree", "FlightYawDegree", "FlightXSpeed", "FlightYSpeed", "FlightZSpeed",
            "GimbalPitchDegree", "GimbalRollDegree", "GimbalYawDegree", "GimbalReverse", "CamReverse",
        ],
        "http://ns.iview-multimedia.com/mediapro/1.0/": ["Location"],
        "http://ns.camerabits.com/photomechanic/1.0/": ["CountryCode"],
        // Darwin Core (as exiftool writes it): the dcterms Location class, whole.
        "http://rs.tdwg.org/dwc/index.htm": ["dctermsLocation"],
        // The structures that hold Google's poses, so no empty shell is left behind.
        "http://ns.google.com/photos/dd/1.0/device/": ["Pose", "EarthPos"],
        "http://ns.google.com/photos/dd/1.0/camera/": ["Pose"],
        "http://ns.google.com/photos/dd/1.0/plane/": ["Pose"],
    ]

    /// Whether a property says where the picture was taken.
    package static func contains(_ name: XMPNamespaces.Name) -> Bool {
        switch name.uri {
        case exif, nikonAst: return name.local.hasPrefix("GPS")
        case cell: return true
        case _ where googlePoses.contains(name.uri): return true
        default: return properties[name.uri]?.contains(name.local) ?? false
        }
    }
}
