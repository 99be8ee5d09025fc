/// The zoom transition as geometry: a view that moves and grows from a rect on the
/// portrait screen to another (or to fullscreen, turned into an orientation), showing the
/// image aspect-filled (or fit) and clipped to its bounds. Pure, no pixels.
///
/// The timing is ZoomingViewController's: the view zooms to the upright fullscreen
/// (`zoomDuration`, 0.2 s), then turns with the device (`turnDuration`, 0.25 s), each phase
/// with its own easing; with `rotateWithZoom` the turn happens during the zoom. The dismiss
/// transition (`reverse`) is its own forward-time animation: turn back upright, then zoom
/// out to the rect, with the easings as given.
public struct ZoomAnimation: Sendable {
    /// Where the view is in one frame: its bounds size, centre and turn (degrees,
    /// clockwise on screen), all in portrait screen pixels.
    public struct ViewState: Hashable, Sendable {
        public var centerX: Double
        public var centerY: Double
        public var width: Double
        public var height: Double
        public var rotation: Double

        public init(centerX: Double, centerY: Double, width: Double, height: Double, rotation: Double) {
            self.centerX = centerX
            self.centerY = centerY
            self.width = width
            self.height = height
            self.rotation = rotation
        }

        /// The unrotated rect (as a frame would be given).
        public var rect: Rect { Rect(x: centerX - width / 2, y: centerY - height / 2, width: width, height: height) }

        /// View-local coordinates (origin at the bounds' top-left, unturned) to the screen.
        public var toScreen: AffineTransform {
            AffineTransform.translation(-width / 2, -height / 2).then(.rotation(degrees: rotation))
                .then(.translation(centerX, centerY))
        }
    }

    /// One frame: its time, phase, eased progress, view and the image-to-canvas transform.
    public struct Frame: Sendable {
        public let index: Int
        public let time: Double
        /// "zoom", "turn" or "bounce".
        public let phase: String
        /// The phase's eased progress, 0...1.
        public let progress: Double
        /// How far the view is presented: 0 at the rect, 1 fullscreen (or at `to`). Rises
        /// during a forward zoom, falls during a reverse zoom, stays 1 during a turn.
        public let presented: Double
        public let view: ViewState
        public let transform: AffineTransform
        /// Canvas pixels per image pixel.
        public let scale: Double
        /// The fit this frame is exactly (fullscreen and at rest), whose transform it uses.
        public let fit: FitGeometry?

        public init(
            index: Int, time: Double, phase: String, progress: Double, presented: Double, view: ViewState,
            transform: AffineTransform, scale: Double, fit: FitGeometry? = nil
        ) {
            self.index = index
            self.time = time
            self.phase = phase
            self.progress = progress
            self.presented = presented
            self.view = view
            self.transform = transform
            self.scale = scale
            self.fit = fit
        }
    }

    public let image: PixelSize
    public let screen: PixelSize
    public let from: Rect
    /// nil: fullscreen for `orientation`.
    public let to: Rect?
    public let orientation: DeviceOrientation
    public let mode: FitGeometry.Mode
    public let rotateWithZoom: Bool
    public let reverse: Bool
    public let timeline: TransitionTimeline
    /// With a fill, the upright pixel kept in the middle (`animate --at`), nil: the centre.
    public var focus: PixelPoint?

    /// - Parameters:
    ///   - zoomDuration, turnDuration: the phases' lengths in seconds (the turn only when
    ///     there is one to make, after the zoom).
    ///   - easing, turnEasing: the phases' curves (the turn's defaults to the zoom's).
    ///   - fps: frame rate; or `frameCount` frames in all.
    public init(
        image: PixelSize, screen: PixelSize, from: Rect, to: Rect?, orientation: DeviceOrientation = .portrait,
        mode: FitGeometry.Mode = .fill, easing: Easing = .easeInOut, turnEasing: Easing? = nil,
        zoomDuration: Double = 0.2, turnDuration: Double = 0.25, fps: Double = 60, frameCount: Int? = nil,
        rotateWithZoom: Bool = false, reverse: Bool = false
    ) {
        self.image = image
        self.screen = screen
        self.from = from
        self.to = to
        self.orientation = to == nil ? orientation : .portrait
        self.mode = mode
        self.rotateWithZoom = rotateWithZoom
        self.reverse = reverse
        let turns = to == nil && self.orientation != .portrait && !rotateWithZoom
        var phases = [TransitionTimeline.Phase(name: "zoom", duration: zoomDuration, easing: easing)]
        if turns {
            let turn = TransitionTimeline.Phase(name: "turn", duration: turnDuration, easing: turnEasing ?? easing)
            phases = reverse ? [turn] + phases : phases + [turn]
        }
        timeline =
            frameCount.map { TransitionTimeline(phases: phases, frameCount: $0) }
            ?? TransitionTimeline(phases: phases, fps: fps)
    }

    public var frameCount: Int { timeline.frameCount }

    /// Whether the view turns after the zoom, in a phase of its own.
    public var turnsSeparately: Bool { timeline.phases.count > 1 }

    package static func state(_ r: Rect, rotation: Double = 0) -> ViewState {
        ViewState(
            centerX: r.x + r.width / 2, centerY: r.y + r.height / 2, width: r.width, height: r.height,
            rotation: rotation)
    }

    package static func lerp(_ a: Double, _ b: Double, _ p: Double) -> Double { a + (b - a) * p }

    package static func lerp(_ a: ViewState, _ b: ViewState, _ p: Double) -> ViewState {
        if p == 0 { return a }
        if p == 1 { return b }
        return ViewState(
            centerX: lerp(a.centerX, b.centerX, p), centerY: lerp(a.centerY, b.centerY, p),
            width: lerp(a.width, b.width, p), height: lerp(a.height, b.height, p),
            rotation: lerp(a.rotation, b.rotation, p))
    }

    /// The screen rect before any turn.
    package var screenRect: Rect { Rect(x: 0, y: 0, width: Double(screen.width), height: Double(screen.height)) }

    /// The final view: the given rect, or fullscreen in the orientation (bounds swapped in
    /// landscape, turned by the orientation's content rotation, as `fit` does).
    public var endState: ViewState {
        if let to { return Self.state(to) }
        let bounds = orientation.isLandscape ? screen.transposed : screen
        return ViewState(
            centerX: Double(screen.width) / 2, centerY: Double(screen.height) / 2,
            width: Double(bounds.width), height: Double(bounds.height), rotation: orientation.contentRotation)
    }

    /// The upright fullscreen view between the zoom and the turn.
    public var uprightState: ViewState { Self.state(screenRect) }

    /// The fullscreen fit in `orientation`: what `fit` renders, and the last frame.
    public var endFit: FitGeometry? {
        to == nil ? FitGeometry(image: image, screen: screen, orientation: orientation, mode: mode, focus: focus) : nil
    }

    /// The view for frame `k`.
    public func frame(_ k: Int) -> Frame {
        let s = timeline.sample(k)
        let phase = timeline.phases[s.phase].name
        let start = Self.state(from)
        let end = endState
        let zoomEnd = turnsSeparately ? uprightState : end
        let p = s.progress
        let view: ViewState
        let presented: Double
        // At rest in a fullscreen state, the frame is exactly that state's `fit`.
        var rest: FitGeometry?
        switch (phase, reverse) {
        case ("zoom", false):
            view = Self.lerp(start, zoomEnd, p)
            presented = p
            if s.fraction == 1 && to == nil {
                rest = FitGeometry(
                    image: image, screen: screen, orientation: turnsSeparately ? .portrait : orientation, mode: mode,
                    focus: focus)
            }
        case ("zoom", true):
            view = Self.lerp(zoomEnd, start, p)
            presented = 1 - p
            if s.fraction == 0 && to == nil {
                rest = FitGeometry(
                    image: image, screen: screen, orientation: turnsSeparately ? .portrait : orientation, mode: mode,
                    focus: focus)
            }
        case (_, false):
            view = Self.lerp(uprightState, end, p)
            presented = 1
            if s.fraction == 1 {
                rest = endFit
            } else if s.fraction == 0 {
                rest = FitGeometry(image: image, screen: screen, orientation: .portrait, mode: mode, focus: focus)
            }
        default:
            view = Self.lerp(end, uprightState, p)
            presented = 1
            if s.fraction == 0 {
                rest = endFit
            } else if s.fraction == 1 {
                rest = FitGeometry(image: image, screen: screen, orientation: .portrait, mode: mode, focus: focus)
            }
        }
        if let rest {
            return Frame(
                index: k, time: s.time, phase: phase, progress: p, presented: presented, view: view,
                transform: rest.transform, scale: rest.scale, fit: rest)
        }
        let sx = view.width / Double(image.width)
        let sy = view.height / Double(image.height)
        let scale = mode == .fill ? max(sx, sy) : min(sx, sy)
        let (cx, cy) = middle(view, scale: scale)
        // Image -> view-local (centred at 0) -> turned -> placed at the view's centre.
        let transform = AffineTransform.translation(-cx, -cy)
            .then(.scale(scale, scale))
            .then(.rotation(degrees: view.rotation))
            .then(.translation(view.centerX, view.centerY))
        return Frame(
            index: k, time: s.time, phase: phase, progress: p, presented: presented, view: view,
            transform: transform, scale: scale)
    }

    /// The image point at the view's centre: the image's middle, or with a fill and `focus`
    /// the focus pixel's centre, moved in no further than keeps the view covered.
    func middle(_ view: ViewState, scale: Double) -> (Double, Double) {
        let (w, h) = (Double(image.width), Double(image.height))
        guard mode == .fill, let focus else { return (w / 2, h / 2) }
        func axis(_ f: Int, _ length: Double, _ half: Double) -> Double {
            half >= length / 2 ? length / 2 : min(max(Double(f) + 0.5, half), length - half)
        }
        return (axis(focus.x, w, view.width / 2 / scale), axis(focus.y, h, view.height / 2 / scale))
    }

    /// Every frame in order.
    public var frames: [Frame] { (0..<frameCount).map(frame) }
}
