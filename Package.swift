// swift-tools-version:5.9
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
        .executable(name: "zeropii-benchmarks", targets: ["ZeroPiiBenchmarks"]),
        .executable(name: "zeropii-ct-probe", targets: ["ZeroPiiConstantTimeProbe"]),
    ],
    targets: [
        .target(name: "ZeroPiiCrypto", swiftSettings: strictConcurrency),
        .target(name: "ZeroPiiModels", swiftSettings: strictConcurrency),
        .target(name: "ZeroPiiTransport", swiftSettings: strictConcurrency),
        .target(name: "ZeroPiiRetry", swiftSettings: strictConcurrency),
        // The privacy manifests that App Store submissions need from every SDK: what the SDK
        // collects and the required-reason APIs it calls (PrivacyManifestTests checks them).
        .target(name: "ZeroPiiAuth", resources: [.copy("PrivacyInfo.xcprivacy")], swiftSettings: strictConcurrency),
        .target(
            name: "ZeroPiiSDK",
            dependencies: ["ZeroPiiModels", "ZeroPiiCrypto", "ZeroPiiTransport", "ZeroPiiAuth", "ZeroPiiRetry"],
            resources: [.copy("PrivacyInfo.xcprivacy")],
            swiftSettings: strictConcurrency
        ),
        .target(name: "ZeroPiiMockServer", dependencies: ["ZeroPiiCrypto", "ZeroPiiModels"], swiftSettings: strictConcurrency),
        .target(name: "CleverTapZeroPiiSDK", dependencies: ["ZeroPiiSDK"], swiftSettings: strictConcurrency),
        .target(
            name: "ZeroPiiTestSupport",
            dependencies: ["ZeroPiiTransport", "ZeroPiiAuth", "ZeroPiiRetry"],
            swiftSettings: strictConcurrency
        ),
        .target(
            name: "ZeroPiiCLI",
            dependencies: ["ZeroPiiSDK", "ZeroPiiMockServer", "ZeroPiiCrypto", "ZeroPiiTransport"],
            swiftSettings: strictConcurrency
        ),
        .executableTarget(name: "zeropii", dependencies: ["ZeroPiiCLI"], swiftSettings: strictConcurrency),
        .executableTarget(
            name: "ZeroPiiBenchmarks",
            dependencies: [
                "ZeroPiiCrypto", "ZeroPiiCLI", "ZeroPiiSDK", "ZeroPiiMockServer", "ZeroPiiModels", "ZeroPiiTransport", "ZeroPiiTestSupport",
            ],
            swiftSettings: strictConcurrency
        ),
        .testTarget(
            name: "ZeroPiiMockServerTests",
            dependencies: ["ZeroPiiMockServer", "ZeroPiiCrypto", "ZeroPiiModels", "ZeroPiiTestSupport"],
            swiftSettings: strictConcurrency
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["ZeroPiiSDK", "ZeroPiiMockServer", "ZeroPiiTestSupport", "zeropii"],
            path: "IntegrationTests",
            swiftSettings: strictConcurrency
        ),
        .testTarget(name: "ZeroPiiCLITests", dependencies: ["ZeroPiiCLI", "ZeroPiiSDK", "ZeroPiiTestSupport"], swiftSettings: strictConcurrency),
        .testTarget(name: "ZeroPiiModelsTests", dependencies: ["ZeroPiiModels"], swiftSettings: strictConcurrency),
        .testTarget(name: "ZeroPiiTransportTests", dependencies: ["ZeroPiiTransport", "ZeroPiiTestSupport"], swiftSettings: strictConcurrency),
        .testTarget(name: "ZeroPiiRetryTests", dependencies: ["ZeroPiiRetry", "ZeroPiiTestSupport"], swiftSettings: strictConcurrency),
        .testTarget(name: "ZeroPiiAuthTests", dependencies: ["ZeroPiiAuth", "ZeroPiiTestSupport"], swiftSettings: strictConcurrency),
        .testTarget(
            name: "ZeroPiiSDKTests",
            dependencies: ["CleverTapZeroPiiSDK", "ZeroPiiSDK", "ZeroPiiCrypto", "ZeroPiiTestSupport"],
            swiftSettings: strictConcurrency
        ),
        // Swift 6 language mode, as an app written today: the callbacks' isolation is
        // checked at run time there (MainActorCallbackTests). `-swift-version 6` because
        // `.swiftLanguageMode(.v6)` needs tools version 6.0, and the package keeps 5.9 for
        // Xcode 15; a test target is in no product, so the flag never reaches an app.
        .testTarget(
            name: "ZeroPiiSwift6AppTests",
            dependencies: ["CleverTapZeroPiiSDK", "ZeroPiiTestSupport"],
            swiftSettings: [.unsafeFlags(["-swift-version", "6"])]
        ),
        .executableTarget(name: "ZeroPiiConstantTimeProbe", dependencies: ["ZeroPiiCrypto", "ZeroPiiModels"], swiftSettings: strictConcurrency),
        .testTarget(
            name: "ZeroPiiCryptoTests",
            dependencies: ["ZeroPiiCrypto"],
            swiftSettings: strictConcurrency
        ),
    ]
)
