// swift-tools-version:6.0
// The decode-path fuzz target: a package of its own so that the main package never
// builds it (it only links with -sanitize=fuzzer). `make fuzz` builds and runs it; see
// Tools/fuzz/README.md.
import PackageDescription

let package = Package(
    name: "forcezoom-fuzz",
    dependencies: [
        .package(name: "forcezoom", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "fuzz-decode",
            dependencies: [.product(name: "FZCodecs", package: "forcezoom")],
            // libFuzzer supplies main(); the target only defines LLVMFuzzerTestOneInput.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ]
)
