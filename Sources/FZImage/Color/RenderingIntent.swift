/// How colours outside the target gamut are mapped (ICC rendering intents, lcms2's numbers).
public enum RenderingIntent: String, CaseIterable, Sendable {
    case perceptual
    case relative
    case saturation
    case absolute

    /// lcms2's INTENT_* value.
    package var lcms: Int32 {
        switch self {
        case .perceptual: return 0
        case .relative: return 1
        case .saturation: return 2
        case .absolute: return 3
        }
    }
}
