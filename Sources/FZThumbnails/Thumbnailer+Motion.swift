import FZFormat
import FZMotion

extension Thumbnailer {
    /// A motion photo's clip is never in a thumbnail (issue 50): why, for `--json`
    /// (`"motionPhoto":"dropped"`), nil for any other input.
    func motionClipDropped(_ reader: ImageReader) -> String? {
        MotionPhoto.clip(path: reader.path, xmp: reader.metadata.xmp, budget: decode.budget).map {
            MotionPhoto.droppedNote($0)
        }
    }
}
