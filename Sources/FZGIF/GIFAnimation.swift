import FZFormat
import FZSystem
import Geometry

/// A GIF's frames one at a time (`thumb --animated`): each `next` disposes of the frame
/// before as it asked and draws the next one on the one canvas (`GIFComposer.step`), so
/// memory stays the canvas, one restore-to-previous region and one row, whatever the
/// number of frames.
final class GIFAnimation: AnimationSource {
    let canvasSize: PixelSize
    let frameCount: Int
    let loopCount: Int
    private let stream: GIFStream
    private let composer: GIFComposer
    /// Owns the memory the composer draws on.
    private let canvas: ZeroedBuffer
    private var walk = GIFComposer.Walk()
    private let lenient: Bool

    init(
        stream: GIFStream, composer: GIFComposer, canvas: ZeroedBuffer, frameCount: Int, loopCount: Int,
        lenient: Bool
    ) {
        self.stream = stream
        self.composer = composer
        self.canvas = canvas
        self.frameCount = frameCount
        self.loopCount = loopCount
        self.lenient = lenient
        canvasSize = composer.screen
    }

    func next(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws -> Bool {
        guard walk.index < frameCount else { return false }
        let control: GIFControl?
        do { control = try composer.step(stream, &walk) } catch {
            // A frame that does not decode ends the animation; lenient keeps the frames before.
            if lenient && walk.index > 1 { return false }
            throw error
        }
        guard let control else { return false }
        try body(UnsafeRawBufferPointer(canvas.bytes), control.delay * 10)
        return true
    }
}
