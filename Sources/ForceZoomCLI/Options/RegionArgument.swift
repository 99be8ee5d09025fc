import ArgumentParser
import FZOperations
import Geometry

/// `compare --mask X,Y,W,H`: a rectangle of whole pixels of the compared (upright) image,
/// X and Y from 0, W and H from 1, each within `Budget.maxSide`.
struct RegionArgument: ExpressibleByArgument, CustomStringConvertible, Hashable {
    let rect: PixelRect
    let text: String

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map {
            Int($0.trimmingCharacters)
        }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
            x >= 0, y >= 0, w >= 1, h >= 1, max(x, y, w, h) <= Budget.maxSide
        else { return nil }
        rect = PixelRect(x: x, y: y, width: w, height: h)
        text = argument
    }

    var description: String { text }
    static var defaultCompletionKind: CompletionKind { .default }
}

/// `compare --threshold`: 120 or 0.5% (`CompareThreshold`).
extension CompareThreshold: ExpressibleByArgument {
    public init?(argument: String) { self.init(text: argument) }
}

/// `compare --fuzz`: 12 or 5% (`PixelFuzz`).
extension PixelFuzz: ExpressibleByArgument {
    public init?(argument: String) { self.init(text: argument) }
}

extension CompareMetric: ChoiceArgument {}
