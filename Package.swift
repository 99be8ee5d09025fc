// swift-tools-version:6.0
// Length: the package manifest is one file by SwiftPM's rule: one target per format and shim, each with the comment that says why it is there.
import PackageDescription

// The shims are C the hot paths call (PNG filters, deflate bands): optimised in every build.
let shimFlags: [CSetting] = [.unsafeFlags(["-O2"])]

// What every format target builds on.
let formatBase: [Target.Dependency] = ["Geometry", "FZSystem", "FZImage", "FZMetadata", "FZFormat"]

let package = Package(
    name: "forcezoom",
    products: [
        // The binary is the product. The FZ* layers are targets only: their API serves the
        // command line and is not offered to other packages (docs/architecture.md, "Structure").
        .executable(name: "forcezoom", targets: ["forcezoom"])
    ]
        // The fuzz harness (Tools/fuzz, a package of its own so this one never links
        // libFuzzer) links the geometry, the codecs, the resampler, the journal and the terminal parsers;
        // `make fuzz` sets FORCEZOOM_FUZZ=1 to expose them.
        + (Context.environment["FORCEZOOM_FUZZ"] == "1"
            ? [
                .library(
                    name: "FZCodecs",
                    targets: [
                        "Geometry", "FZSystem", "FZImage", "FZMetadata", "FZFormat", "FZGainMap", "FZCodecs",
                        "FZRender", "FZThumbnails", "FZTerminal", "FZMotion",
                    ])
            ] : []),
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // System libraries: headers and link flags come from pkg-config; apt names the package to install.
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            // ISA-L's inflate and CRC-32: the PNG reader (CFZPNG/fz_png_read.c, issue 38).
            name: "CISAL",
            pkgConfig: "libisal",
            providers: [.apt(["libisal-dev"])]
        ),
        .systemLibrary(
            name: "CJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        .systemLibrary(
            // TurboJPEG's tjTransform: lossless crops (`crop --lossless`). libjpeg62-turbo
            // does not export jpegtran's transforms; libturbojpeg does.
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"])]
        ),
        .systemLibrary(
            // Headers only: forcezoom does not link libheif but opens it on first use
            // (CFZHeif/fz_heif_loader.c), so runs without HEIF do not load its codecs.
            name: "CHeif",
            providers: [.apt(["libheif-dev"])]
        ),
        // Camera RAW and DNG (issue 35): libraw's C API, thread-safe build: its headers, and
        // forwarders that open libraw_r on first use (CFZRaw/fz_raw_loader.c) rather than
        // linking it. No other shim: libraw does not longjmp, its C entry points catch its
        // exceptions, and its callbacks are set from Swift (RAW/RAWCodec.swift).
        .systemLibrary(
            name: "CRaw",
            providers: [.apt(["libraw-dev"])]
        ),
        .target(name: "CFZRaw", dependencies: ["CFZCommon", "CRaw"], cSettings: shimFlags),
        // GIF (issue 35): giflib reports errors by return codes (no longjmp), so no shim.
        .systemLibrary(
            name: "CGIF",
            pkgConfig: "libgif",
            providers: [.apt(["libgif-dev"])]
        ),
        // TIFF (issue 35): libtiff's headers, and its shim (handlers that keep its messages off
        // stderr, the bands of strips or tiles a crop touches, the sample conversion), which
        // opens libtiff on first use (CFZTIFF/fz_tiff_loader.c) rather than linking it.
        .systemLibrary(
            name: "CTIFF",
            providers: [.apt(["libtiff-dev"])]
        ),
        .target(name: "CFZTIFF", dependencies: ["CFZCommon", "CFZColor", "CTIFF"], cSettings: shimFlags),
        .systemLibrary(
            name: "CLCMS2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]
        ),
        // JPEG XL (issue 35): libjxl 0.7's decoder and encoder with its thread runner
        // (libjxl_threads). Headers only: they return statuses and never longjmp, and
        // forcezoom opens them on first use (CFZJXL/fz_jxl_loader.c) rather than linking
        // them, so runs without JPEG XL do not pay Highway's start-up.
        .systemLibrary(
            name: "CJXL",
            providers: [.apt(["libjxl-dev"])]
        ),
        // The C shims, one per library as swift-nio's CNIO* targets: every libpng/libjpeg call
        // that can longjmp runs in C, under setjmp, and returns a status (fz_common.h says why);
        // lcms2's error handler and libheif's loader too. A Swift target imports only the shim
        // of the library it uses, so Support never sees libpng's headers.
        .target(name: "CFZCommon"),
        .target(name: "CFZPNG", dependencies: ["CFZCommon", "CPNG", "CISAL"], cSettings: shimFlags),
        // fz_jpeg.c converts CMYK through the colour shim (lcms2) while libjpeg decodes.
        .target(
            name: "CFZJPEG",
            dependencies: ["CFZCommon", "CFZColor", "CJPEG", "CTurboJPEG"],
            cSettings: shimFlags
        ),
        .target(name: "CFZDeflate", dependencies: ["CFZCommon", "CZlib"], cSettings: shimFlags),
        .target(name: "CFZColor", dependencies: ["CFZCommon", "CLCMS2"], cSettings: shimFlags),
        .target(name: "CFZHeif", dependencies: ["CFZCommon", "CHeif"], cSettings: shimFlags),
        .target(name: "CFZJXL", dependencies: ["CFZCommon", "CJXL"], cSettings: shimFlags),
        // HEVC tiles of HEIF grids (issue 38): libde265 linked (it needs only libstdc++, which
        // the binary loads already) and driven by its shim, which also converts to RGB as
        // libheif 1.15 does; libheif stays for everything else and is opened only then.
        .systemLibrary(
            name: "CDe265",
            pkgConfig: "libde265",
            providers: [.apt(["libde265-dev"])]
        ),
        .target(name: "CFZDe265", dependencies: ["CDe265"], cSettings: shimFlags),
        // Videos (issue 50): FFmpeg's demuxers, decoders and scaler (Debian's FFmpeg 5.1).
        // Headers only: CFZVideo/fz_video.c opens the four libraries on first use, so runs
        // without a video never load FFmpeg's codecs, and a machine without them reads the rest.
        .systemLibrary(
            name: "CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
        ),
        .target(name: "CFZVideo", dependencies: ["CFZCommon", "CFFmpeg"], cSettings: shimFlags),
        // URLs (issue 52): libcurl's headers; libcurl.so.4 opened on the first URL (fz_curl_loader.c), no -lcurl.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CFZCurl", dependencies: ["CFZCommon", "CCurl"], cSettings: shimFlags),
        // Signals, temp-output cleanup and the terminal's raw mode: async-signal-safe C.
        .target(name: "CFZProcess", cSettings: shimFlags),

        // The Swift layers, bottom up; each imports only what it declares here (make lint checks;
        // docs/architecture.md, "Structure", draws the graph).
        // Placement, fitting and timing maths: the standard library and libm only.
        .target(name: "Geometry"),
        // Files, paths, outputs, signals, threads, the budget, JSON, digests.
        .target(name: "FZSystem", dependencies: ["Geometry", "CFZProcess"]),
        // Pixels in memory and their colour (lcms2 through CFZColor).
        .target(name: "FZImage", dependencies: ["Geometry", "FZSystem", "CFZColor"]),
        // What every format shares: EXIF, XMP, IPTC and the containers an output has for them.
        .target(name: "FZMetadata", dependencies: ["Geometry", "FZSystem"]),
        // The decoder and encoder protocols, formats, headers, options, errors, byte output:
        // what a format target implements and the layers above ask for (docs/architecture.md).
        .target(name: "FZFormat", dependencies: ["Geometry", "FZSystem", "FZImage", "FZMetadata"]),
        // Live Photo pairs and motion photo clips from their boxes, maker notes and XMP (issue 50).
        .target(name: "FZMotion", dependencies: ["FZSystem", "FZMetadata"]),
        // URLs read by range through libcurl (issue 52): RemoteSource's fetcher over HTTP.
        // Also S3's transport (S3HTTPTransport) and its objects read by range (S3Source).
        .target(name: "FZHTTP", dependencies: ["FZSystem", "FZS3", "CFZCurl"]),
        // One target per format, each declaring only its own C modules (as swift-nio gives
        // each protocol its target): a format's change rebuilds it and what is above it.
        .target(name: "FZPNG", dependencies: formatBase + ["CFZPNG", "CFZDeflate", "CZlib"]),
        .target(name: "FZJPEG", dependencies: formatBase + ["CFZJPEG", "CJPEG"]),
        .target(name: "FZWebP", dependencies: formatBase + ["CWebP"]),
        // HEIF/HEIC/AVIF through libheif (opened on first use), grid tiles through libde265.
        .target(name: "FZHEIF", dependencies: formatBase + ["CFZHeif", "CHeif", "CFZDe265", "CFZProcess"]),
        .target(name: "FZTIFF", dependencies: formatBase + ["CFZTIFF"]),
        .target(name: "FZGIF", dependencies: formatBase + ["CGIF"]),
        .target(name: "FZBMP", dependencies: formatBase),
        .target(name: "FZJXL", dependencies: formatBase + ["CFZJXL", "CJXL"]),
        // Video posters (MP4/MOV/3GP, Matroska/WebM, AVI) through FFmpeg, opened on first use.
        .target(name: "FZVideo", dependencies: formatBase + ["CFZVideo"]),
        // RAW decodes a camera's embedded JPEG preview with the JPEG decoder.
        .target(name: "FZRAW", dependencies: formatBase + ["CFZRaw", "CRaw", "FZJPEG"]),
        // HDR gain maps: Ultra HDR/Adobe (JPEG + MPF + XMP) and Apple's (HEIC auxiliary image,
        // maker note), above the two formats that carry them.
        .target(name: "FZGainMap", dependencies: formatBase + ["FZJPEG", "FZHEIF"]),
        // The registries (one line per format), ImageReader and ImageWriter over them, and the
        // gain-map glue that reads and writes through them.
        .target(
            name: "FZCodecs",
            dependencies: formatBase + [
                "FZPNG", "FZJPEG", "FZWebP", "FZHEIF", "FZTIFF", "FZGIF", "FZBMP", "FZJXL", "FZRAW", "FZGainMap",
                "FZVideo",
            ]
        ),
        // Drawing, resampling and rendering in one module, so the hot loops inline across them.
        .target(
            // Not FZCodecs: the resampler reads rows through FZFormat's ImageReader and the HDR
            // kernels take FZGainMap's values, so rendering builds beside the format targets.
            name: "FZRender", dependencies: ["Geometry", "FZSystem", "FZImage", "FZMetadata", "FZFormat", "FZGainMap"]),
        .target(name: "FZCompare", dependencies: ["Geometry", "FZSystem", "FZImage", "FZFormat", "FZCodecs"]),
        .target(
            name: "FZThumbnails",
            dependencies: [
                "Geometry", "FZSystem", "FZImage", "FZMetadata", "FZFormat", "FZGainMap", "FZCodecs", "FZRender",
                "FZS3", "FZMotion",
            ]
        ),
        .target(
            name: "FZTerminal",
            dependencies: [
                "Geometry", "FZSystem", "FZImage", "FZFormat", "FZPNG", "FZCodecs", "FZRender", "CFZProcess",
            ]
        ),
        .target(
            name: "FZFixtures",
            // The fixture writer drives the PNG, JPEG, WebP and HEIF encoders directly (its
            // options: progressive, subsampling, irot/imir...), beyond what the registry asks.
            dependencies: [
                "Geometry", "FZSystem", "FZImage", "FZFormat", "FZPNG", "FZJPEG", "FZWebP", "FZHEIF", "FZGainMap",
                "FZCodecs", "FZRender",
            ]
        ),
        // S3 (issue 52): SigV4, credentials, requests, manifests; pure Swift over the S3Transport protocol.
        .target(name: "FZS3", dependencies: ["FZSystem"]),
        // One operation per command: read, render, write.
        .target(
            name: "FZOperations",
            dependencies: [
                "Geometry", "FZSystem", "FZImage", "FZMetadata", "FZFormat", "FZPNG", "FZJPEG", "FZGainMap", "FZCodecs",
                "FZRender", "FZCompare",
                "FZThumbnails", "FZTerminal", "FZFixtures", "FZMotion", "FZHTTP", "FZS3",
            ]
        ),
        // The subcommands, their options and validation: a library, so tests parse in process.
        .target(
            name: "ForceZoomCLI",
            dependencies: [
                "Geometry",
                "FZOperations",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "forcezoom",
            dependencies: ["ForceZoomCLI"],
            // Release links with lld, packed relative relocations (DT_RELR, glibc >= 2.36) and no
            // exported symbols (nothing dlsyms the executable): the loader no longer reads 1.1 MB
            // of RELA entries and 0.8 MB of symbol tables at start-up (issue 51: about 1.5 MB of
            // every command's peak RSS).
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker",
                        "--no-export-dynamic",
                        // Common commands' functions side by side (Tools/release/symbol-order.py): the kernel
                        // maps code 64 KB around each page touched (a crop had 6.8 MB of it resident).
                        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Tools/release/symbol-order.txt",
                        "-Xlinker", "--no-warn-symbol-ordering",
                    ], .when(configuration: .release))
            ]
        ),
        // Tests mirror the targets: one test target per layer, the CLI's in-process parsing
        // tests, and the end-to-end tests that run the built binary. Shared helpers (running
        // the binary, the README's examples, test data paths) live in TestSupport.
        .target(
            name: "TestSupport",
            dependencies: ["FZSystem", "FZImage", "FZFormat", "FZCodecs"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
        // The CRC-32 test checks the PNG target's table against the system's.
        .testTarget(name: "FZSystemTests", dependencies: ["FZPNG", "FZSystem"]),
        .testTarget(name: "FZImageTests", dependencies: ["FZImage", "Geometry"]),
        .testTarget(
            name: "FZCodecsTests",
            // CFZPNG: the PNG reader parity test calls the libpng reader and ours directly.
            // CFZDe265: the early warm-up's rule is compared with the registry's.
            dependencies: [
                "CFZDe265", "CFZPNG", "FZCodecs", "FZFixtures", "FZFormat", "FZImage", "FZSystem", "Geometry",
                "TestSupport",
                "FZMetadata", "FZFormat", "FZPNG", "FZJPEG", "FZHEIF", "FZTIFF", "FZGIF", "FZBMP", "FZRAW", "FZGainMap",
            ]),
        .testTarget(
            name: "FZRenderTests",
            dependencies: [
                "FZFormat", "FZGainMap", "FZCodecs", "FZFixtures", "FZImage", "FZRender", "FZSystem", "Geometry",
                "TestSupport",
            ]),
        .testTarget(
            name: "FZTerminalTests",
            dependencies: [
                "FZFormat", "FZPNG", "FZCodecs", "FZImage", "FZSystem", "FZTerminal", "Geometry", "TestSupport",
                "FZRender",
            ]),
        .testTarget(
            name: "FZThumbnailsTests",
            dependencies: [
                "FZFormat", "FZCodecs", "FZImage", "FZRender", "FZSystem", "FZThumbnails", "Geometry", "TestSupport",
            ]),
        .testTarget(name: "FZMotionTests", dependencies: ["FZMotion", "FZSystem"]),
        .testTarget(
            name: "FZFixturesTests", dependencies: ["FZFixtures", "FZImage", "Geometry", "TestSupport"]),
        // compare's pair core (issue 36): options, masks, verdicts, properties of the counts.
        .testTarget(name: "FZHTTPTests", dependencies: ["FZHTTP", "FZSystem", "TestSupport"]),  // issue 52
        .testTarget(name: "FZCompareTests", dependencies: ["FZCompare", "FZImage", "FZSystem", "Geometry"]),
        // The operations in process (issue 48): output targets, crop and fit on coordinate-coded images.
        .testTarget(
            name: "FZOperationsTests",
            dependencies: [
                "FZFormat", "FZCodecs", "FZFixtures", "FZImage", "FZOperations", "FZRender", "FZSystem", "Geometry",
                "TestSupport",
            ]
        ),
        // The S3 tests carry their requests with the real transport (FZHTTP's S3HTTPTransport).
        .testTarget(name: "FZS3Tests", dependencies: ["FZS3", "FZHTTP", "FZSystem", "TestSupport"]),
        .testTarget(
            name: "ForceZoomCLITests",
            dependencies: [
                "Geometry", "ForceZoomCLI", "FZOperations", "FZSystem", "FZThumbnails", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "FZFormat", "FZGainMap", "FZHEIF", "FZJXL", "FZWebP", "FZCodecs", "FZImage", "FZSystem", "Geometry",
                "TestSupport",
            ]),
    ]
)
