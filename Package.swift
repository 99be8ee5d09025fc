// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "forcezoom",
    products: [
        // The binary is the product. ForceZoomCore is a target only: its API serves the
        // command line and is not offered to other packages (README, "Structure").
        .executable(name: "forcezoom", targets: ["forcezoom"])
    ]
        // The fuzz harness (Tools/fuzz, a package of its own so this one never links
        // libFuzzer) links the core; `make fuzz` sets FORCEZOOM_FUZZ=1 to expose it.
        + (Context.environment["FORCEZOOM_FUZZ"] == "1"
            ? [.library(name: "ForceZoomCore", targets: ["ForceZoomCore"])] : []),
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
            // (FZShims/fz_heif_loader.c), so runs without HEIF do not load its codecs.
            name: "CHeif",
            providers: [.apt(["libheif-dev"])]
        ),
        .systemLibrary(
            name: "CLCMS2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]
        ),
        // The C shims: every libpng/libjpeg call that can longjmp runs here, under setjmp;
        // lcms2's error handler too.
        .target(
            name: "FZShims",
            dependencies: ["CPNG", "CJPEG", "CTurboJPEG", "CZlib", "CLCMS2", "CHeif"],
            cSettings: [.unsafeFlags(["-O2"])]
        ),
        // Placement, fitting and timing maths: the standard library and libm only.
        .target(name: "Geometry"),
        .target(
            name: "ForceZoomCore",
            dependencies: ["Geometry", "FZShims", "CZlib", "CWebP", "CHeif"],
        ),
        // The subcommands, their options and validation: a library, so tests parse in process.
        .target(
            name: "ForceZoomCLI",
            dependencies: [
                "Geometry",
                "ForceZoomCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "forcezoom",
            dependencies: ["ForceZoomCLI"]
        ),
        .testTarget(
            name: "ForceZoomCoreTests",
            dependencies: ["Geometry", "ForceZoomCore"]
        ),
        .testTarget(
            name: "ForceZoomCLITests",
            dependencies: [
                "Geometry",
                "ForceZoomCore",
                "ForceZoomCLI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ]
)
