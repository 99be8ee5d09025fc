import ArgumentParser
import FZOperations

/// `--background`, declared once for every command that renders an image and writes it
/// (crop, fit, frame, transform, animate, thumb). What it fills and its default differ by
/// command (`Help`); which formats flatten onto it and which keep alpha come from the
/// encoders (`OutputFormat.keepsAlpha`), so no help lists a stale set of formats.
struct BackgroundFlags<Help: BackgroundHelp>: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(Help.help, valueName: "color"))
    var background: ColorArgument = ColorArgument(Help.defaultColor)
}

/// What one command's `--background` fills, and its default.
protocol BackgroundHelp {
    static var defaultColor: Color { get }
    /// The help's first sentence: what the colour shows in.
    static var lead: String { get }
    /// The whole help: `lead`, then what the output formats do with alpha.
    static var help: String { get }
}

extension BackgroundHelp {
    static var help: String { "\(lead) \(FormatNames.flattening)" }
}

/// crop: where the image is smaller than the square.
enum CropBackground: BackgroundHelp {
    static var defaultColor: Color { .transparent }
    static var lead: String {
        "Fill where the image is smaller than the square: black, white, transparent, #RRGGBB, #RRGGBBAA."
    }
}

/// fit: the letterbox of the fitted image.
enum FitBackground: BackgroundHelp {
    static var defaultColor: Color { .black }
    static var lead: String { "The blanking colour: black, white, transparent, #RRGGBB, #RRGGBBAA." }
}

/// frame: the letterbox of the view.
enum FrameBackground: BackgroundHelp {
    static var defaultColor: Color { .black }
    static var lead: String { "Letterbox colour." }
}

/// transform: what shows outside the warped image.
enum TransformBackground: BackgroundHelp {
    static var defaultColor: Color { .transparent }
    static var lead: String { "What shows outside the image." }
}

/// animate: behind the moving view.
enum AnimateBackground: BackgroundHelp {
    static var defaultColor: Color { .black }
    static var lead: String { "Background colour." }
}

/// thumb: only what the formats without alpha flatten onto.
enum ThumbBackground: BackgroundHelp {
    static var defaultColor: Color { .white }
    static var lead: String { "" }
    static var help: String {
        "What \(FormatNames.withoutAlpha("and")) outputs flatten transparent pixels onto: black, white (default), gray, red, green, blue, #RRGGBB. Ignored by the formats that keep alpha."
    }
}
