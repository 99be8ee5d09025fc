// swift-tools-version:6.0
import PackageDescription

// The shims are C the hot paths call (PNG filters, deflate bands): optimised in every build.
let shimFlags: [CSetting] = [.unsafeFlags(["-O2"])]

let package = Package(
    name: "forcezoom",
    products: [
        // The binary is the product. The FZ* layers are targets only: their API serves the
        // command line and is not offered to other packages (README, "Structure").
        .executable(name: "forcezoom", targets: ["forcezoom"])
    ]
        // The fuzz harness (Tools/fuzz, a package of its own so this one never links
        // libFuzzer) links the codecs, the resampler, the journal and the terminal parsers;
        // `make fuzz` sets FORCEZOOM_FUZZ=1 to expose them.
        + (Context.environment["FORCEZOOM_FUZZ"] == "1"
            ? [
                .library(
                    name: "FZCodecs",
                    targets: ["FZSystem", "FZImage", "FZCodecs", "FZRender", "FZThumbnails", "FZTerminal"])
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
        // Signals, temp-output cleanup and the terminal's raw mode: async-signal-safe C.
        .target(name: "CFZProcess", cSettings: shimFlags),

        // The Swift layers, bottom up; each imports only what it declares here (README,
        // "Structure" draws the graph).
        // Placement, fitting and timing maths: the standard library and libm only.
        .target(name: "Geometry"),
        // Files, paths, outputs, signals, threads, the budget, JSON, digests.
        .target(name: "FZSystem", dependencies: ["Geometry", "CFZProcess"]),
        // Pixels in memory and their colour (lcms2 through CFZColor).
        .target(name: "FZImage", dependencies: ["Geometry", "FZSystem", "CFZColor"]),
        // The format registries, decoders, encoders and metadata, one folder per library.
        .target(
            name: "FZCodecs",
            dependencies: [
                "Geometry", "FZSystem", "FZImage", "CFZPNG", "CFZJPEG", "CFZDeflate", "CFZHeif", "CFZProcess", "CJPEG",
                "CZlib", "CWebP", "CHeif",
                "CRaw", "CFZRaw",
                "CGIF",
                "CFZTIFF",
                "CJXL", "CFZJXL",  // JPEG XL (issue 35)
                "CFZDe265",  // HEVC grid tiles (issue 38)
            ]
        ),
        // Drawing, resampling and rendering in one module, so the hot loops inline across them.
        .target(name: "FZRender", dependencies: ["Geometry", "FZSystem", "FZImage", "FZCodecs"]),
        .target(name: "FZCompare", dependencies: ["Geometry", "FZSystem", "FZImage", "FZCodecs"]),
        .target(
            name: "FZThumbnails",
            dependencies: ["Geometry", "FZSystem", "FZImage", "FZCodecs", "FZRender"]
        ),
        .target(
            name: "FZTerminal",
            dependencies: ["Geometry", "FZSystem", "FZImage", "FZCodecs", "FZRender", "CFZProcess"]
        ),
        .target(
            name: "FZFixtures",
            dependencies: ["Geometry", "FZSystem", "FZImage", "FZCodecs", "FZRender"]
        ),
        // One operation per command: read, render, write.
        .target(
            name: "FZOperations",
            dependencies: [
                "Geometry", "FZSystem", "FZImage", "FZCodecs", "FZRender", "FZCompare",
                "FZThumbnails", "FZTerminal", "FZFixtures",
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
            dependencies: ["ForceZoomCLI"]
        ),
        // Tests mirror the targets: one test target per layer, the CLI's in-process parsing
        // tests, and the end-to-end tests that run the built binary. Shared helpers (running
        // the binary, the README's examples, test data paths) live in TestSupport.
        .target(
            name: "TestSupport",
            dependencies: ["FZSystem", "FZImage", "FZCodecs"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
        .testTarget(name: "FZSystemTests", dependencies: ["FZCodecs", "FZSystem"]),
        .testTarget(name: "FZImageTests", dependencies: ["FZImage", "Geometry"]),
        .testTarget(
            name: "FZCodecsTests",
            // CFZPNG: the PNG reader parity test calls the libpng reader and ours directly.
            // CFZDe265: the early warm-up's rule is compared with the registry's.
            dependencies: [
                "CFZDe265", "CFZPNG", "FZCodecs", "FZFixtures", "FZImage", "FZSystem", "Geometry", "TestSupport",
            ]),
        .testTarget(
            name: "FZRenderTests",
            dependencies: ["FZCodecs", "FZFixtures", "FZImage", "FZRender", "FZSystem", "Geometry", "TestSupport"]),
        .testTarget(
            name: "FZTerminalTests",
            dependencies: ["FZCodecs", "FZImage", "FZSystem", "FZTerminal", "Geometry", "TestSupport"]),
        .testTarget(
            name: "FZThumbnailsTests",
            dependencies: ["FZCodecs", "FZImage", "FZSystem", "FZThumbnails", "Geometry", "TestSupport"]),
        .testTarget(
            name: "FZFixturesTests", dependencies: ["FZCodecs", "FZFixtures", "FZImage", "Geometry", "TestSupport"]),
        // compare's pair core (issue 36): options, masks, verdicts, properties of the counts.
        .testTarget(name: "FZCompareTests", dependencies: ["FZCompare", "FZImage", "FZSystem", "Geometry"]),
        .testTarget(
            name: "ForceZoomCLITests",
            dependencies: [
                "Geometry", "ForceZoomCLI", "FZOperations", "FZSystem", "FZThumbnails", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "EndToEndTests", dependencies: ["FZCodecs", "FZImage", "FZSystem", "Geometry", "TestSupport"]),
    ]
)
