/// An output never holds a motion photo's clip (issue 50): every encoder writes the still alone,
/// and `crop --lossless` copies the JPEG's markers but not what follows its end. So an output's
/// XMP must not announce one: Google's camera namespace (GCamera:MotionPhoto, MicroVideo,
/// MicroVideoOffset, whose offsets would point into the output's own bytes) is left out when
/// it says the file is a motion photo. Google's Container directory, the other half of the
/// announcement, goes with the gain-map description (`withoutGainMap` in FZGainMap, which calls
/// this), since Ultra HDR shares its namespace.
extension CarriedMetadata {
    /// Google's camera namespace.
    package static let googleCamera = "http://ns.google.com/photos/1.0/camera/"

    /// Whether a packet announces a motion clip (a GCamera MotionPhoto or MicroVideo property).
    package static func announcesMotion(_ x: XMPPacket) -> Bool {
        func motion(_ n: XMPNamespaces.Name?) -> Bool {
            guard let n, n.uri == googleCamera else { return false }
            return n.local.hasPrefix("MotionPhoto") || n.local.hasPrefix("MicroVideo")
        }
        return x.names.contains { r in
            guard let r else { return false }
            return motion(r.element) || r.attributes.contains(where: motion)
        }
    }

    /// The metadata without the motion announcement (the whole packet left out if what is left
    /// would not parse: an output must not announce a clip it lacks).
    package func withoutMotionPhoto() -> CarriedMetadata {
        guard let x = xmp, Self.announcesMotion(x) else { return self }
        var r = self
        r.xmp = try? XMPPacket(parsing: x.removing(namespaces: [Self.googleCamera]))
        r.written = nil
        return r
    }
}
