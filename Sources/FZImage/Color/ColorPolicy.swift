/// `--icc keep|srgb|strip`: what an output carries of its input's colour, and the conversion
/// to sRGB, in one place for every command and for `Thumbnailer` (each used to implement it,
/// warnings included). Callers report the warnings it returns; it prints nothing.
public struct ColorPolicy: Hashable, Sendable {
    /// What an output carries.
    public enum Mode: String, CaseIterable, Sendable {
        /// The input's description, less a profile that must not be copied (`KeptColor`).
        case keep
        /// Pixels converted to sRGB with lcms2, tagged sRGB.
        case srgb
        /// No colour information, samples unchanged.
        case strip
    }

    public var mode: Mode
    /// The rendering intent of the conversion to sRGB.
    public var intent: RenderingIntent

    public init(mode: Mode = .keep, intent: RenderingIntent = .relative) {
        self.mode = mode
        self.intent = intent
    }

    /// The intent pixels are converted to sRGB with, nil unless `srgb`.
    public var convertsToSRGB: RenderingIntent? { mode == .srgb ? intent : nil }

    /// What an output made from an input described by `color` carries, and why a profile
    /// was left out when `keep` had to leave it out.
    public func carried(_ color: ColorDescription) -> (color: ColorDescription?, warning: String?) {
        switch mode {
        case .keep:
            let kept = KeptColor(color)
            return (kept.color, kept.dropped)
        case .srgb: return (SRGBConverter.tag(intent: intent), nil)
        case .strip: return (nil, nil)
        }
    }

    /// With `srgb`, converts `image` (described by `color`, read from `path`) to sRGB in
    /// place, before anything is drawn on it (drawn colours are given in sRGB).
    /// - Returns: a warning when `lenient` let an unusable profile pass (the pixels are then
    ///   taken as sRGB).
    /// - Throws: `ColorError` for an unusable profile without `lenient`.
    public func convert(
        _ image: inout Image, from color: ColorDescription, path: String, lenient: Bool
    ) throws(ColorError) -> String? {
        guard let intent = convertsToSRGB else { return nil }
        return try Self.leniently(lenient) { () throws(ColorError) in
            try SRGBConverter(
                color: color, format: image.format, intent: intent, blackPointCompensation: intent != .absolute,
                path: path)?
                .convert(&image)
        }
    }

    /// The 16-bit counterpart of `convert(_:from:path:lenient:)`.
    public func convert(
        _ image: inout Image16, from color: ColorDescription, path: String, lenient: Bool
    ) throws(ColorError) -> String? {
        guard let intent = convertsToSRGB else { return nil }
        return try Self.leniently(lenient) { () throws(ColorError) in
            try SRGBConverter(
                color: color, format: image.format, intent: intent, blackPointCompensation: intent != .absolute,
                sixteenBit: true, path: path)?
                .convert(&image)
        }
    }

    /// Runs a conversion; an unusable profile fails, or with `lenient` becomes the warning.
    private static func leniently(_ lenient: Bool, _ body: () throws(ColorError) -> Void) throws(ColorError) -> String?
    {
        do { try body() } catch {
            guard lenient, case .unusableProfile(_, let reason) = error else { throw error }
            return "the ICC profile cannot be used (\(reason)); the pixels are taken as sRGB"
        }
        return nil
    }
}
