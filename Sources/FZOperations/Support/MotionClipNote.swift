import FZFormat
import FZMotion

extension RenderSettings {
    /// Why an output of `reader` has no motion clip, nil when it is no motion photo (issue 50).
    package func motionClipDropped(_ reader: ImageReader, lossless: Bool = false) -> String? {
        MotionPhoto.clip(path: reader.path, xmp: reader.metadata.xmp, budget: decode.budget).map {
            MotionPhoto.droppedNote($0, lossless: lossless)
        }
    }
}
