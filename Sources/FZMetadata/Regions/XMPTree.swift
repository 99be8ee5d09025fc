/// An XMP packet's elements as a tree, for reading structured properties (regions): each
/// element with its resolved name, its attributes' resolved names and values, its text and
/// its children. Built from `XMPPacket`'s tokens (so bounded as they are: at most
/// `XMPPacket.maxBytes` of XML, `XMPScanner.maxDepth` deep); entities in text and values are
/// decoded (the five XML names and numeric references).
///
/// RDF writes one structure three ways, and `field`, `structure` and `items` read all of
/// them: a property as an attribute or as a child element, a structure as an
/// `rdf:Description` child, as `rdf:parseType="Resource"` children, or as attributes on the
/// property's element.
package struct XMPTree: Sendable {
    package struct Node: Sendable {
        package var name: XMPNamespaces.Name?
        package var attributes: [(name: XMPNamespaces.Name, value: String)]
        package var text: String
        package var children: [Int]
    }

    package private(set) var nodes: [Node] = []

    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let xml = "http://www.w3.org/XML/1998/namespace"

    package init(_ packet: XMPPacket) {
        var open: [Int] = []
        var texts: [[UInt8]] = []
        for (token, resolved) in zip(packet.tokens, packet.names) {
            switch token {
            case .raw(let bytes):
                guard let top = open.last else { continue }
                texts[top] += Self.characters(bytes)
            case .start(_, let attributes, let selfClosing):
                var named: [(XMPNamespaces.Name, String)] = []
                for (a, n) in zip(attributes, resolved?.attributes ?? []) {
                    if let n { named.append((n, Self.decoded(Array(a.value.utf8)))) }
                }
                let index = nodes.count
                nodes.append(Node(name: resolved?.element, attributes: named, text: "", children: []))
                texts.append([])
                if let parent = open.last { nodes[parent].children.append(index) }
                if !selfClosing { open.append(index) }
            case .end:
                guard let top = open.popLast() else { continue }
                nodes[top].text = Self.decoded(texts[top])
                texts[top] = []
            }
        }
    }

    /// The bytes a raw token adds to its element's text: text as it is, CDATA's content,
    /// nothing for comments and processing instructions.
    private static func characters(_ bytes: [UInt8]) -> [UInt8] {
        let cdata = Array("<![CDATA[".utf8)
        if bytes.starts(with: cdata) { return Array(bytes.dropFirst(cdata.count).dropLast(3)) }
        if bytes.first == UInt8(ascii: "<") { return [] }
        return bytes
    }

    /// Text with XML's entity references replaced; an unknown or malformed one is kept as written.
    static func decoded(_ bytes: [UInt8]) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var out = ""
        var text = String(decoding: bytes, as: UTF8.self)[...]
        while let amp = text.firstIndex(of: "&") {
            out += text[..<amp]
            let rest = text[amp...]
            guard let semi = rest.prefix(12).firstIndex(of: ";") else {
                out += "&"
                text = rest.dropFirst()
                continue
            }
            let entity = rest[rest.index(after: amp)..<semi]
            if let c = Self.entity(entity) {
                out.unicodeScalars.append(c)
            } else {
                out += rest[amp...semi]
            }
            text = rest[rest.index(after: semi)...]
        }
        return out + text
    }

    private static func entity(_ e: Substring) -> Unicode.Scalar? {
        switch e {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard e.hasPrefix("#") else { return nil }
            let digits = e.dropFirst()
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init)
        }
    }

    /// Every element named `uri`/`local`, in document order.
    package func elements(_ uri: String, _ local: String) -> [Int] {
        nodes.indices.filter { nodes[$0].name == XMPNamespaces.Name(uri: uri, local: local) }
    }

    /// The first child element of `node` named `uri`/`local`.
    package func child(_ node: Int, _ uri: String, _ local: String) -> Int? {
        let name = XMPNamespaces.Name(uri: uri, local: local)
        return nodes[node].children.first { nodes[$0].name == name }
    }

    /// What holds a structure's fields: the property's `rdf:Description` child, or the
    /// property element itself (parseType Resource, or fields as its attributes).
    package func resource(_ node: Int) -> Int { child(node, Self.rdf, "Description") ?? node }

    /// The structure in field `uri`/`local` of the structure at `node`.
    package func structure(_ node: Int, _ uri: String, _ local: String) -> Int? {
        child(node, uri, local).map(resource)
    }

    /// The simple value of field `uri`/`local` of the structure at `node`: an attribute, a
    /// child element's text, or a language alternative's default (`x-default`, else the first).
    package func field(_ node: Int, _ uri: String, _ local: String) -> String? {
        let name = XMPNamespaces.Name(uri: uri, local: local)
        if let a = nodes[node].attributes.first(where: { $0.name == name }) { return a.value }
        guard let c = child(node, uri, local) else { return nil }
        if let alt = child(c, Self.rdf, "Alt") {
            let items = nodes[alt].children.filter { nodes[$0].name?.local == "li" }
            let lang = XMPNamespaces.Name(uri: Self.xml, local: "lang")
            let preferred = items.first { nodes[$0].attributes.contains { $0.name == lang && $0.value == "x-default" } }
            return (preferred ?? items.first).map { nodes[$0].text }
        }
        if let value = nodes[c].attributes.first(where: {
            $0.name == XMPNamespaces.Name(uri: Self.rdf, local: "resource")
        }) {
            return value.value
        }
        return nodes[c].text
    }

    /// The items of array field `uri`/`local` (a Bag, Seq or Alt) of the structure at
    /// `node`, each the node holding its fields.
    package func items(_ node: Int, _ uri: String, _ local: String) -> [Int] {
        guard let c = child(node, uri, local) else { return [] }
        let container = nodes[c].children.first { n in
            guard let name = nodes[n].name, name.uri == Self.rdf else { return false }
            return name.local == "Bag" || name.local == "Seq" || name.local == "Alt"
        }
        guard let container else { return [] }
        let li = XMPNamespaces.Name(uri: Self.rdf, local: "li")
        return nodes[container].children.filter { nodes[$0].name == li }.map(resource)
    }
}
