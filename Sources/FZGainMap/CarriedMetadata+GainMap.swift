import FZMetadata

/// An output written without a gain map must not announce one: the input's XMP description
/// of its gain map (`hdrgm:Version`, the GContainer directory naming the map's bytes) is left
/// out of it. (An Ultra HDR output gets its own from `UltraHDRContainer`.)
extension CarriedMetadata {
    package func withoutGainMap() -> CarriedMetadata {
        // No output holds a motion photo's clip either (issue 50): its camera fields go too.
        if let x = xmp, Self.announcesMotion(x) { return withoutMotionPhoto().withoutGainMap() }
        guard let x = xmp else { return self }
        let owned = UltraHDRContainer.ownedNamespaces
        let announces = x.names.contains { r in
            guard let r else { return false }
            return r.element.map { owned.contains($0.uri) } == true
                || r.attributes.contains { $0.map { owned.contains($0.uri) } == true }
        }
        guard announces, let stripped = try? XMPPacket(parsing: x.removing(namespaces: owned)) else { return self }
        var r = self
        r.xmp = stripped
        r.written = nil
        return r
    }
}
