import FZCodecs
import FZFormat
import FZGainMap
import FZMetadata

// Formats and how outputs are encoded and coloured.
@_exported import enum FZCodecs.FormatRegistry
@_exported import struct FZCodecs.OutputChoice
@_exported import enum FZCompare.CompareMetric
@_exported import enum FZCompare.CompareThreshold
@_exported import struct FZCompare.ImageComparison
@_exported import struct FZCompare.PairComparison
@_exported import struct FZCompare.PairResult
@_exported import struct FZCompare.PixelFuzz
@_exported import struct FZFixtures.FixtureEncoding
@_exported import enum FZFixtures.KitSet
@_exported import struct FZFixtures.Pattern
@_exported import struct FZFormat.DecodeOptions
@_exported import struct FZFormat.EncodeSettings
@_exported import struct FZFormat.EncoderOption
@_exported import struct FZFormat.ImageFormat
@_exported import struct FZFormat.OutputFormat
@_exported import struct FZFormat.PNGSettings
// What outputs do with an input's HDR gain map (`--gain-map`, `--hdr-headroom`).
@_exported import enum FZGainMap.GainMapPolicy
@_exported import enum FZGainMap.HDRHeadroom
@_exported import struct FZImage.CMYKProfile
@_exported import struct FZImage.Color
@_exported import struct FZImage.ColorPolicy
@_exported import enum FZImage.RenderingIntent
@_exported import struct FZMetadata.MetadataPolicy
@_exported import struct FZRender.BoxStyle
@_exported import struct FZRender.Marker
@_exported import struct FZRender.Overlay
// What the options parse into.
@_exported import enum FZRender.ResampleFilter
@_exported import struct FZSystem.Budget
@_exported import enum FZSystem.BudgetError
// Messages, errors and what is printed.
@_exported import enum FZSystem.Echo
@_exported import enum FZSystem.FileSystem
@_exported import protocol FZSystem.ForceZoomError
@_exported import enum FZSystem.Interrupts
@_exported import enum FZSystem.JSON
@_exported import enum FZSystem.MemoryLimit
@_exported import struct FZSystem.OutputPattern
// The process: start-up, the files read so far, standard output, signals.
@_exported import enum FZSystem.ProcessSetup
@_exported import enum FZSystem.ReadFiles
@_exported import enum FZSystem.ReadFilesError
@_exported import enum FZSystem.StandardError
@_exported import enum FZSystem.StandardOutput
@_exported import enum FZSystem.StandardStream
@_exported import struct FZSystem.Stopwatch
@_exported import struct FZSystem.ToolFailure
@_exported import enum FZTerminal.GraphicsProtocol
@_exported import enum FZThumbnails.ShardRequest
@_exported import struct FZThumbnails.ThumbnailLadder
@_exported import struct FZThumbnails.ThumbnailName
@_exported import struct FZThumbnails.ThumbnailSize
