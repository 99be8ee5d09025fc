import CFZJXL
import FZFormat
import FZSystem
import Geometry

/// An animated JPEG XL read one displayed frame at a time (`--animated`, issue 50): libjxl
/// coalesces (composites every frame onto the canvas, blending and disposal as the file
/// says, zero-length frames merged into the next, as browsers show it) and hands over the
/// whole canvas, 8-bit RGBA with straight alpha, stored orientation (the reader turns it).
///
/// One decoder for the whole walk, fed the file's bytes once (kept here, at a stable address,
/// while libjxl reads them); memory is libjxl's canvas and our one RGBA canvas, whatever the
/// frame count. A frame's delay is its duration in the animation's ticks, in milliseconds.
/// This is the one Swift file besides JXLCodec that holds libjxl's decoder pointer.
final class JXLAnimation: AnimationSource {
    let canvasSize: PixelSize
    let frameCount: Int
    /// JPEG XL's num_loops: 0 forever, else how many times it plays (as djxl's APNG says).
    let loopCount: Int
    private let dec: OpaquePointer
    private let runner: JXLCodec.Runner
    private let bytes: UnsafeMutableRawBufferPointer
    private let canvas: UnsafeMutableRawBufferPointer
    private let ticks: (numerator: Int, denominator: Int)
    private let path: String
    private let lenient: Bool
    private var finished = false
    private var shown = 0

    init(data: [UInt8], facts: JXLFacts, threads: Int, path: String, lenient: Bool) throws(DecodeError) {
        canvasSize = facts.size
        frameCount = max(1, facts.frames)
        loopCount = facts.loops
        ticks = facts.ticksPerSecond
        self.path = path
        self.lenient = lenient
        guard let dec = fz_JxlDecoderCreate(nil) else {
            throw .readFailed(path: path, reason: "libjxl could not make a decoder")
        }
        self.dec = dec
        runner = JXLCodec.Runner(threads: threads)
        bytes = .allocate(byteCount: max(1, data.count), alignment: 16)
        canvas = .allocate(byteCount: max(1, facts.size.width * facts.size.height * 4), alignment: 16)
        data.withUnsafeBytes { bytes.copyMemory(from: $0) }
        if let r = runner.pointer, !JXLCodec.ok(fz_JxlDecoderSetParallelRunner(dec, fz_JxlThreadParallelRunner, r)) {
            throw .readFailed(path: path, reason: "libjxl refused its thread runner")
        }
        let events = Int32(JXL_DEC_FRAME.rawValue | JXL_DEC_FULL_IMAGE.rawValue)
        guard JXLCodec.ok(fz_JxlDecoderSubscribeEvents(dec, events)),
            JXLCodec.ok(fz_JxlDecoderSetKeepOrientation(dec, 1)),
            JXLCodec.ok(fz_JxlDecoderSetUnpremultiplyAlpha(dec, 1)),
            JXLCodec.ok(
                fz_JxlDecoderSetInput(dec, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count))
        else { throw .readFailed(path: path, reason: "libjxl refused the decoder's settings") }
        fz_JxlDecoderCloseInput(dec)
    }

    deinit {
        fz_JxlDecoderDestroy(dec)
        bytes.deallocate()
        canvas.deallocate()
    }

    /// A frame's duration in ticks, in milliseconds (rounded).
    private func milliseconds(_ duration: UInt32) -> Int {
        guard ticks.numerator > 0 else { return 0 }
        return Int((Double(duration) * 1000 * Double(ticks.denominator) / Double(ticks.numerator)).rounded())
    }

    func next(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) throws -> Bool {
        guard !finished else { return false }
        var delay = 0
        var format = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        while true {
            switch JXLStderr.quiet({ fz_JxlDecoderProcessInput(dec) }) {
            case JXL_DEC_FRAME:
                var header = JxlFrameHeader()
                if JXLCodec.ok(fz_JxlDecoderGetFrameHeader(dec, &header)) { delay = milliseconds(header.duration) }
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                var size = 0
                guard JXLCodec.ok(fz_JxlDecoderImageOutBufferSize(dec, &format, &size)), size == canvas.count else {
                    throw DecodeError.corrupt(
                        path: path, detail: "libjxl wants a \(size)-byte frame, not \(canvas.count)")
                }
                guard JXLCodec.ok(fz_JxlDecoderSetImageOutBuffer(dec, &format, canvas.baseAddress, canvas.count)) else {
                    throw DecodeError.readFailed(path: path, reason: "libjxl refused the output buffer")
                }
            case JXL_DEC_FULL_IMAGE:
                shown += 1
                try body(UnsafeRawBufferPointer(canvas), delay)
                return true
            case JXL_DEC_SUCCESS:
                finished = true
                return false
            case JXL_DEC_NEED_MORE_INPUT:
                // A cut file: the frames before the cut are kept with --lenient.
                finished = true
                if lenient && shown > 0 { return false }
                throw DecodeError.truncated(
                    path: path, detail: "the JPEG XL frame data ends early (frame \(shown + 1))")
            case JXL_DEC_ERROR:
                finished = true
                throw DecodeError.corrupt(path: path, detail: "libjxl could not decode frame \(shown + 1)")
            default:
                continue
            }
        }
    }
}
