import FZGainMap
import FZSystem

/// `info`'s words for a gain map: its JSON object (docs/json/info.schema.json, `gainMap`) and
/// its part of the text line.
extension InfoOperation {
    static func json(_ g: GainMap) -> JSON {
        let p = g.parameters
        let numbers = { (v: [Double]) -> JSON in .array(v.map { .number($0) }) }
        var m: [(String, JSON)] = [
            ("container", .string(g.container.rawValue))
        ]
        if let item = g.item {
            m.append(("item", .int(Int(item))))
        } else {
            m += [("offset", .int(g.offset)), ("bytes", .int(g.length))]
        }
        m += [
            ("width", .int(g.size.width)), ("height", .int(g.size.height)), ("channels", .int(g.channels)),
            ("scheme", .string(p.scheme.rawValue)), ("version", .string(p.version)),
            ("gainMapMin", numbers(p.gainMapMin)), ("gainMapMax", numbers(p.gainMapMax)), ("gamma", numbers(p.gamma)),
            ("offsetSDR", numbers(p.offsetSDR)), ("offsetHDR", numbers(p.offsetHDR)),
            ("hdrCapacityMin", .number(p.hdrCapacityMin)), ("hdrCapacityMax", .number(p.hdrCapacityMax)),
            ("baseRenditionIsHDR", .bool(p.baseRenditionIsHDR)),
        ]
        if let h = p.appleHeadroom { m.append(("appleHeadroom", .number(h))) }
        return .object(m)
    }

    /// "gain map 1020x768 gray (MPF, hdrgm 1.0, HDR capacity up to 2.66 stops)".
    static func text(_ g: GainMap) -> String {
        let p = g.parameters
        let scheme = p.scheme == .apple ? "Apple, headroom \(short(p.appleHeadroom ?? 1))" : "hdrgm \(p.version)"
        return "gain map \(g.size) \(g.channels == 1 ? "gray" : "RGB") (\(g.container.rawValue), \(scheme), "
            + "HDR capacity up to \(short(p.hdrCapacityMax)) stops)"
    }

    private static func short(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}
