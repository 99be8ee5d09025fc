import ArgumentParser
import FZOperations

/// An option group that `QuickArguments` can fill without swift-argument-parser: its value
/// with every option at its default, and each of its options read by name. What each one
/// gives is the parser's own conversion (`init?(argument:)`, or the option's transform);
/// `QuickParsingTests` compares the outcome with the parser's, value for value, for every
/// option the command has.
protocol QuickOptions {
    /// Every option at the default its declaration gives.
    static var quickDefault: Self { get }

    /// Reads option `name` if it is one of this group's; false if it is not.
    mutating func take(_ name: String, from arguments: inout QuickArguments) -> Bool
}

extension EncoderFlags: QuickOptions {
    static var quickDefault: Self {
        var flags = Self()
        (flags.quality, flags.lossless) = (Help.defaultQuality, false)
        return flags
    }

    mutating func take(_ name: String, from arguments: inout QuickArguments) -> Bool {
        switch name {
        case "--quality": quality = arguments.value(name, as: Int.init(argument:)) ?? quality
        case "--lossless": lossless = arguments.flag(name)
        default: return false
        }
        return true
    }
}

extension FormatFlags: QuickOptions {
    static var quickDefault: Self {
        var flags = Self()
        flags.format = nil
        return flags
    }

    mutating func take(_ name: String, from arguments: inout QuickArguments) -> Bool {
        guard name == "--format" else { return false }
        format = arguments.value(name, as: OutputFormat.init(argument:))
        return true
    }
}

extension MarkerFlags: QuickOptions {
    static var quickDefault: Self {
        var flags = Self()
        (flags.marker, flags.markers) = ([], nil)
        return flags
    }

    mutating func take(_ name: String, from arguments: inout QuickArguments) -> Bool {
        switch name {
        case "--marker": arguments.value(name, repeats: true).map { marker.append($0) }
        case "--markers": markers = arguments.value(name)
        default: return false
        }
        return true
    }
}

extension DecodeFlags: QuickOptions {
    static var quickDefault: Self {
        var flags = Self()
        (flags.noAutoOrient, flags.lenient, flags.frame, flags.cmykProfile) = (false, false, 1, nil)
        (flags.maxPixels, flags.maxMemory) = (defaultMaxPixels, defaultMaxMemory)
        return flags
    }

    mutating func take(_ name: String, from arguments: inout QuickArguments) -> Bool {
        switch name {
        case "--no-auto-orient": noAutoOrient = arguments.flag(name)
        case "--lenient": lenient = arguments.flag(name)
        case "--max-pixels": maxPixels = arguments.value(name, as: Int64.init(argument:)) ?? maxPixels
        case "--max-memory": maxMemory = arguments.value(name, as: Int64.init(argument:)) ?? maxMemory
        case "--frame", "--page": frame = arguments.value("--frame", as: Int.init(argument:)) ?? frame
        case "--cmyk-profile": cmykProfile = arguments.value(name)
        default: return false
        }
        return true
    }
}

extension EncodeFlags: QuickOptions {
    static var quickDefault: Self {
        var flags = Self()
        (flags.compression, flags.icc, flags.intent) = (PNGSettings.defaultCompression, .keep, .relative)
        return flags
    }

    mutating func take(_ name: String, from arguments: inout QuickArguments) -> Bool {
        switch name {
        case "--compression": compression = arguments.value(name, as: Int.init(argument:)) ?? compression
        case "--icc": icc = arguments.value(name, as: ColorPolicy.Mode.init(argument:)) ?? icc
        case "--intent": intent = arguments.value(name, as: RenderingIntent.init(argument:)) ?? intent
        default: return false
        }
        return true
    }
}

extension MetadataFlags: QuickOptions {
    static var quickDefault: Self {
        var flags = Self()
        (flags.strip, flags.noLocation) = (false, false)
        flags.gain = GainMapFlags()
        (flags.gain.gainMap, flags.gain.hdrHeadroom) = (.keep, .mapMaximum)
        return flags
    }

    mutating func take(_ name: String, from arguments: inout QuickArguments) -> Bool {
        switch name {
        case "--strip": strip = arguments.flag(name)
        case "--no-location": noLocation = arguments.flag(name)
        case "--gain-map": gain.gainMap = arguments.value(name, as: GainMapPolicy.init(argument:)) ?? gain.gainMap
        case "--hdr-headroom":
            // The option's transform: a failure is the parser's message.
            gain.hdrHeadroom = arguments.value(name, as: { try? HDRHeadroom(parsing: $0) }) ?? gain.hdrHeadroom
        default: return false
        }
        return true
    }
}

extension DepthFlags: QuickOptions {
    static var quickDefault: Self {
        var flags = Self()
        flags.depth = nil
        return flags
    }

    mutating func take(_ name: String, from arguments: inout QuickArguments) -> Bool {
        guard name == "--depth" else { return false }
        depth = arguments.value(name, as: SampleDepth.init(argument:))
        return true
    }
}

extension ShowFlags: QuickOptions {
    static var quickDefault: Self {
        var flags = Self()
        flags.show = false
        flags.graphics = GraphicsFlags()
        flags.graphics.graphics = nil
        return flags
    }

    mutating func take(_ name: String, from arguments: inout QuickArguments) -> Bool {
        switch name {
        case "--show": show = arguments.flag(name)
        case "--graphics": graphics.graphics = arguments.value(name, as: GraphicsChoice.init(argument:))
        default: return false
        }
        return true
    }
}

extension BackgroundFlags: QuickOptions {
    static var quickDefault: Self {
        var flags = Self()
        flags.background = ColorArgument(Help.defaultColor)
        return flags
    }

    mutating func take(_ name: String, from arguments: inout QuickArguments) -> Bool {
        guard name == "--background" else { return false }
        background = arguments.value(name, as: ColorArgument.init(argument:)) ?? background
        return true
    }
}
