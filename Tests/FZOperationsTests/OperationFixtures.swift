import FZFixtures
import FZImage
import FZSystem
import Geometry
import TestSupport

/// Coordinate-coded inputs (`CoordinateCode`: every pixel's colour names its position), so
/// an output can be traced to the source pixels it shows without trusting our own renderer.
enum OperationFixtures {
    /// A coords PNG of `size` in a fresh scratch folder; returns the folder and the path.
    static func coords(_ size: PixelSize) throws -> (dir: String, path: String) {
        let dir = TestSupport.scratch()
        let path = FileSystem.join(dir, "coords.png")
        try FixtureWriter.write(Pattern(.coords, size: size), encoding: FixtureEncoding(), to: path)
        return (dir, path)
    }

    /// The source position pixel (x, y) of `image` names.
    static func source(_ image: Image, x: Int, y: Int) -> PixelPoint {
        let c = image.rgba(x: x, y: y)
        return CoordinateCode.point(r: c.r, g: c.g, b: c.b)
    }
}
