// swift-tools-version:6.0
import PackageDescription

/// Every target builds with complete strict-concurrency checking, so data races are
/// compile errors on every platform, not just where a newer toolchain happens to run.
let strictConcurrency: [SwiftSetting] = [.enableExperimentalFeature("StrictConcurrency")]

let package = Package(
    name: "ZeroPii",
    platforms: [.iOS(.v13), .macOS(.v10_15), .tvOS(.v13), .watchOS(.v6)],
    products: [
        .library(name: "CleverTapZeroPiiSDK", targets: ["CleverTapZeroPiiSDK"]),
        .library(name: "ZeroPiiSDK", targets: ["ZeroPiiSDK"]),
        .library(name: "ZeroPiiModels", targets: ["ZeroPiiModels"]),
        .library(name: "ZeroPiiTransport", targets: ["ZeroPiiTransport"]),
        .library(name: "ZeroPiiRetry", targets: ["ZeroPiiRetry"]),
        .library(name: "ZeroPiiAuth", targets: ["ZeroPiiAuth"]),
        .library(name: "ZeroPiiTestSupport", targets: ["ZeroPiiTestSupport"]),
        .library(name: "ZeroPiiMockServer", targets: ["ZeroPiiMockServer"]),
        .executable(name: "zeropii", targets: ["zeropii"]),
        // The benchmarks (`zeropii-benchmarks`) and the constant-time probe
        // (`zeropii-ct-probe`) are executable targets but no products: `swift build
        // --product` and `swift run` find them in this package, and an app that depends on
        // the package does not see them in its product list.
    ],
    targets: [
        // The lock-protected state every other module keeps its shared mutable state in.
        // Package access and no product: apps never see it.
        .target(name: "ZeroPiiLocking", swiftSettings: strictConcurrency),
        .target(name: "ZeroPiiCrypto", dependencies: ["ZeroPiiLocking"], swiftSettings: strictConcurrency),
        .target(name: "ZeroPiiModels", swiftSettings: strictConcurrency),
        // The wire protocol in one place (package access, not a product): bodies, Base64,
        // the number format, both envelopes' JSON, and each wire profile's client and server
        // halves, for the SDK and the mock server alike.
        .target(name: "ZeroPiiWire", dependencies: ["ZeroPiiCrypto", "ZeroPiiModels"], swiftSettings: strictConcurrency),
        // The libcurl functions the curl transport calls, found at run time with dlopen:
        // the toolchain's runtime brings libcurl.so.4 but not its headers.
        .target(name: "ZeroPiiCurlShim", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(name: "ZeroPiiTransport", dependencies: ["ZeroPiiLocking", "ZeroPiiCurlShim"], swiftSettings: strictConcurrency),
        .target(name: "ZeroPiiRetry", dependencies: ["ZeroPiiLocking"], swiftSettings: strictConcurrency),
        // The privacy manifests that App Store submissions need from every SDK: what the SDK
        // collects and the required-reason APIs it calls (PrivacyManifestTests checks them).
        .target(
            name: "ZeroPiiAuth", dependencies: ["ZeroPiiLocking"], resources: [.copy("PrivacyInfo.xcprivacy")], swiftSettings: strictConcurrency
        ),
        .target(
            name: "ZeroPiiSDK",
            dependencies: ["ZeroPiiLocking", "ZeroPiiModels", "ZeroPiiWire", "ZeroPiiCrypto", "ZeroPiiTransport", "ZeroPiiAuth", "ZeroPiiRetry"],
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strictConcurrency
        ),
        .target(
            name: "ZeroPiiMockServer", dependencies: ["ZeroPiiLocking", "ZeroPiiWire", "ZeroPiiCrypto", "ZeroPiiModels"],
            swiftSettings: strictConcurrency),
        .target(name: "CleverTapZeroPiiSDK", dependencies: ["ZeroPiiSDK"], swiftSettings: strictConcurrency),
        .target(
            name: "ZeroPiiTestSupport",
            dependencies: ["ZeroPiiLocking", "ZeroPiiTransport", "ZeroPiiAuth", "ZeroPiiRetry"],
            swiftSettings: strictConcurrency
        ),
        .target(
            name: "ZeroPiiCLI",
            dependencies: ["ZeroPiiLocking", "ZeroPiiSDK", "ZeroPiiMockServer", "ZeroPiiWire", "ZeroPiiCrypto", "ZeroPiiTransport"],
            swiftSettings: strictConcurrency
        ),
        .executableTarget(name: "zeropii", dependencies: ["ZeroPiiCLI"], swiftSettings: strictConcurrency),
        .executableTarget(
            name: "zeropii-benchmarks",
            dependencies: [
                "ZeroPiiLocking", "ZeroPiiCrypto", "ZeroPiiCLI", "ZeroPiiSDK", "ZeroPiiMockServer", "ZeroPiiModels", "ZeroPiiWire",
                "ZeroPiiTransport", "ZeroPiiTestSupport",
            ],
            path: "Sources/ZeroPiiBenchmarks",
            swiftSettings: strictConcurrency
        ),
        // What the test targets share: a seeded generator, bounded waits, a scripted token
        // provider, and the trait that keeps the heaviest suites out of the
        // ThreadSanitizer passes. Not a product: apps get ZeroPiiTestSupport.
        .target(
            name: "ZeroPiiTestHelpers",
            dependencies: ["ZeroPiiAuth"],
            path: "Tests/ZeroPiiTestHelpers",
            swiftSettings: strictConcurrency
        ),
        .testTarget(
            name: "ZeroPiiMockServerTests",
            dependencies: [
                "ZeroPiiMockServer", "ZeroPiiWire", "ZeroPiiCrypto", "ZeroPiiModels", "ZeroPiiLocking", "ZeroPiiTestSupport",
                "ZeroPiiTestHelpers",
            ],
            swiftSettings: strictConcurrency
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "ZeroPiiSDK", "ZeroPiiMockServer", "ZeroPiiTestSupport", "ZeroPiiTestHelpers", "ZeroPiiLocking", "zeropii", "zeropii-benchmarks",
            ],
            path: "IntegrationTests",
            swiftSettings: strictConcurrency
        ),
        .testTarget(
            name: "ZeroPiiCLITests", dependencies: ["ZeroPiiCLI", "ZeroPiiSDK", "ZeroPiiTestSupport", "ZeroPiiTestHelpers"],
            swiftSettings: strictConcurrency),
        .testTarget(name: "ZeroPiiLockingTests", dependencies: ["ZeroPiiLocking"], swiftSettings: strictConcurrency),
        .testTarget(name: "ZeroPiiModelsTests", dependencies: ["ZeroPiiModels", "ZeroPiiTestHelpers"], swiftSettings: strictConcurrency),
        .testTarget(
            name: "ZeroPiiWireTests", dependencies: ["ZeroPiiWire", "ZeroPiiModels", "ZeroPiiCrypto", "ZeroPiiTestHelpers"],
            swiftSettings: strictConcurrency),
        .testTarget(
            name: "ZeroPiiTransportTests", dependencies: ["ZeroPiiTransport", "ZeroPiiTestSupport", "ZeroPiiTestHelpers"],
            swiftSettings: strictConcurrency),
        .testTarget(name: "ZeroPiiRetryTests", dependencies: ["ZeroPiiRetry", "ZeroPiiTestSupport"], swiftSettings: strictConcurrency),
        .testTarget(
            name: "ZeroPiiAuthTests", dependencies: ["ZeroPiiAuth", "ZeroPiiTestSupport", "ZeroPiiTestHelpers"], swiftSettings: strictConcurrency),
        .testTarget(
            name: "ZeroPiiSDKTests",
            dependencies: ["CleverTapZeroPiiSDK", "ZeroPiiSDK", "ZeroPiiWire", "ZeroPiiCrypto", "ZeroPiiTestSupport", "ZeroPiiTestHelpers"],
            swiftSettings: strictConcurrency
        ),
        // Swift 6 language mode, as an app written today: the callbacks' isolation is
        // checked at run time there (MainActorCallbackTests).
        .testTarget(
            name: "ZeroPiiSwift6AppTests",
            dependencies: ["CleverTapZeroPiiSDK", "ZeroPiiTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "zeropii-ct-probe",
            dependencies: ["ZeroPiiCrypto", "ZeroPiiModels", "ZeroPiiWire"],
            path: "Sources/ZeroPiiConstantTimeProbe",
            swiftSettings: strictConcurrency
        ),
        .testTarget(
            name: "ZeroPiiCryptoTests",
            dependencies: ["ZeroPiiCrypto", "ZeroPiiTestHelpers"],
            // Project Wycheproof's AES-GCM, HKDF and HMAC vectors (Apache License 2.0).
            resources: [.copy("Resources/wycheproof")],
            swiftSettings: strictConcurrency
        ),
    ],
    // The library is written in Swift 5 language mode with complete strict-concurrency
    // checking; apps in either mode use it (ConsumerCheck builds one in Swift 6 mode).
    swiftLanguageModes: [.v5]
)
