import Geometry

/// An error already phrased for the user, carrying the exit code it ends a run with, so
/// the command line catches once (`ForceZoom.run`) instead of wrapping each error type:
/// `forcezoom: error: <description>`, then `exit(exitCode)`.
public protocol ForceZoomError: Error, CustomStringConvertible {
    /// 1 when an input or output failed, 2 for bad usage (README, "Exit codes").
    var exitCode: Int32 { get }
}

extension ForceZoomError {
    /// Most failures are an input's or an output's: exit 1.
    public var exitCode: Int32 { 1 }
}

/// A failure phrased where it happens (no type of its own is worth it): the message, and
/// exit 1 unless said otherwise.
public struct ToolFailure: ForceZoomError, Equatable, Sendable {
    public let message: String
    public let exitCode: Int32

    public init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }

    /// An error about one input, prefixed with its name (`<stdin>` for `-`): geometry
    /// errors know no file.
    public init(path: String, _ error: some CustomStringConvertible) {
        self.init("\(StandardStream.inputName(path)): \(error)")
    }

    public var description: String { message }
}

// Each error type conforms where it is declared; Geometry's here, as Geometry depends on nothing.
extension GeometryError: ForceZoomError {}
