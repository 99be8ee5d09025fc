import FZSystem

extension FormatRegistry {
    /// Starts the set-up of the decoders the command line's file names call for, each on a
    /// thread of its own, before the arguments are parsed: libde265 builds its tables in
    /// about 5 ms, as long as parsing takes, so a one-tile HEIC crop no longer waits for both
    /// in turn. Names are judged by their extension only (no file is opened): a wrong guess
    /// costs that set-up's time on another core, a missed one costs what it did before.
    /// At most the first 32 names are looked at, so a batch of thousands adds nothing; with
    /// one thread an image (`FORCEZOOM_THREADS=1`) nothing is started.
    /// - Returns: the extensions whose decoder was asked, in order (for tests).
    @discardableResult
    public static func warmUp(forArguments arguments: [String]) -> [String] {
        // An array, not a Set: the first Set<ObjectIdentifier> of a run costs the Swift
        // runtime a search of every protocol conformance in the binary (0.2 ms), and this
        // runs before the set-up it starts; there are a dozen decoders.
        var started: [ObjectIdentifier] = []
        var asked: [String] = []
        guard Threads.perImage > 1 else { return asked }
        for argument in arguments.prefix(32) where !argument.hasPrefix("-") {
            guard let dot = argument.lastIndex(of: "."), argument.index(after: dot) < argument.endIndex else {
                continue
            }
            let fileExtension = argument[argument.index(after: dot)...].lowercased()
            for decoder in ImageDecoders.all where decoder.registration.extensions.contains(fileExtension) {
                guard !started.contains(ObjectIdentifier(decoder)) else { continue }
                started.append(ObjectIdentifier(decoder))
                decoder.warmUp(forExtension: fileExtension)
                asked.append(fileExtension)
            }
        }
        return asked
    }
}
