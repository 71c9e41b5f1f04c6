// swift-tools-version:6.0
import PackageDescription

// Examples that build against the SDK in this checkout (`path: ".."`); an app would
// depend on the released package by URL instead (see the README).
let strictConcurrency: [SwiftSetting] = [.enableExperimentalFeature("StrictConcurrency")]

let package = Package(
    name: "ZeroPiiExamples",
    platforms: [.macOS(.v11), .iOS(.v14), .tvOS(.v14), .watchOS(.v7)],
    products: [
        .executable(name: "tokenize-values", targets: ["TokenizeValues"]),
        // Products, so that Xcode gives the snippets schemes to build for the iOS Simulator
        // (.github/workflows/ci.yml), where the UIKit and SwiftUI files compile.
        .library(name: "AppSnippets", targets: ["AppSnippets"]),
        .library(name: "ObjectiveCSnippets", targets: ["ObjectiveCSnippets"]),
        .library(name: "Swift6AppSnippets", targets: ["Swift6AppSnippets"]),
    ],
    dependencies: [
        .package(name: "ZeroPii", path: "..")
    ],
    targets: [
        // A command-line program: the server-side use, on Linux or macOS.
        .executableTarget(
            name: "TokenizeValues",
            dependencies: [.product(name: "CleverTapZeroPiiSDK", package: "ZeroPii")],
            swiftSettings: strictConcurrency
        ),
        // The reference's Swift, SwiftUI and UIKit snippets. The SwiftUI and UIKit files need
        // Apple's SDKs and compile to nothing elsewhere. Written, like the reference, for
        // Swift 5's default concurrency checking: the app code people start from.
        .target(
            name: "AppSnippets",
            dependencies: [.product(name: "CleverTapZeroPiiSDK", package: "ZeroPii")]
        ),
        // The same Swift, SwiftUI and UIKit snippets (the files are links to AppSnippets'),
        // unchanged, in Swift 6 language mode, and a `@MainActor` view model that uses the
        // callback and the async API: what an app written today compiles. In Swift 6 a
        // callback that breaks actor isolation is a compile error here, not a trap at run
        // time (the Getting Started article's "Concurrency").
        .target(
            name: "Swift6AppSnippets",
            dependencies: [.product(name: "CleverTapZeroPiiSDK", package: "ZeroPii")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The plain-Swift part of the SwiftUI sample app (Apps/ZeroPIISample: settings,
        // token fetch, view model), built here so that Linux compiles it in Swift 6 mode
        // too; the app's SwiftUI files and the Objective-C app build in Xcode (project.yml).
        .target(
            name: "ZeroPIISampleShared",
            dependencies: [.product(name: "CleverTapZeroPiiSDK", package: "ZeroPii")],
            path: "Apps/ZeroPIISample/Shared",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The reference's Objective-C snippets, compiled as Objective-C where there is an
        // Objective-C runtime (Apple platforms) and to nothing on Linux.
        .target(
            name: "ObjectiveCSnippets",
            dependencies: [.product(name: "CleverTapZeroPiiSDK", package: "ZeroPii")]
        ),
    ],
    // Swift 5 unless a target says otherwise: the reference's snippets as an app in Swift 5 mode compiles them.
    swiftLanguageModes: [.v5]
)
