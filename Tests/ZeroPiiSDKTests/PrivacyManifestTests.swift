import Foundation
import Testing

@testable import ZeroPiiSDK

/// The privacy manifests (`PrivacyInfo.xcprivacy`) that App Store submissions need from
/// every SDK: parsed as Xcode parses them, checked key by key, and held against the
/// sources, so that a new clock, file or defaults call without a declaration fails here.
@Suite struct PrivacyManifestTests {
    /// The modules an app links when it uses the SDK (the pod's default subspec and the
    /// XCFramework): the SDK's manifest covers all of them.
    static let shippedModules = [
        "ZeroPiiCrypto", "ZeroPiiModels", "ZeroPiiTransport", "ZeroPiiAuth", "ZeroPiiRetry", "ZeroPiiSDK",
        "CleverTapZeroPiiSDK",
    ]

    /// Apple's required-reason API categories and the calls of each that Swift code on
    /// Apple platforms can make (developer.apple.com, "Describing use of required reason API").
    static let requiredReasonCalls: [String: [String]] = [
        "NSPrivacyAccessedAPICategorySystemBootTime": [
            #"\bsystemUptime\b"#, #"\bmach_absolute_time\b"#, #"\bmach_continuous_time\b"#,
            #"\bclock_gettime(_nsec_np)?\(\s*CLOCK_(MONOTONIC|MONOTONIC_RAW|UPTIME_RAW|BOOTTIME)"#,
        ],
        "NSPrivacyAccessedAPICategoryFileTimestamp": [
            #"\bcreationDate\b"#, #"\bmodificationDate\b"#, #"\bfileModificationDate\b"#,
            #"\bcontentModificationDateKey\b"#, #"\bcreationDateKey\b"#, #"\bgetattrlist(bulk|at)?\b"#,
            #"\bf?getattrlist\b"#, #"\b(f|l)?stat(at)?\("#, #"\battributesOfItem\b"#,
        ],
        "NSPrivacyAccessedAPICategoryDiskSpace": [
            #"\bvolumeAvailableCapacity\w*\b"#, #"\bvolumeTotalCapacityKey\b"#, #"\bsystemFreeSize\b"#,
            #"\bsystemSize\b"#, #"\bf?statv?fs\("#, #"\battributesOfFileSystem\b"#,
        ],
        "NSPrivacyAccessedAPICategoryUserDefaults": [#"\bUserDefaults\b"#, #"\bNSUserDefaults\b"#],
        "NSPrivacyAccessedAPICategoryActiveKeyboards": [#"\bactiveInputModes\b"#],
    ]

    static let sourcesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    static func manifest(ofModule module: String) throws -> [String: Any] {
        let url = sourcesDirectory.appendingPathComponent(module).appendingPathComponent("PrivacyInfo.xcprivacy")
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
        return try #require(plist as? [String: Any])
    }

    /// The declared required-reason APIs, as category -> reasons.
    static func accessedAPIs(_ manifest: [String: Any]) throws -> [String: [String]] {
        let entries = try #require(manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        var declared: [String: [String]] = [:]
        for entry in entries {
            let category = try #require(entry["NSPrivacyAccessedAPIType"] as? String)
            declared[category] = try #require(entry["NSPrivacyAccessedAPITypeReasons"] as? [String])
        }
        return declared
    }

    /// The required-reason categories the module's code (comments left out) calls into.
    static func categoriesCalled(byModules modules: [String]) throws -> Set<String> {
        var code = ""
        for module in modules {
            let directory = sourcesDirectory.appendingPathComponent(module)
            let files = try #require(FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil))
            for case let file as URL in files where file.pathExtension == "swift" {
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                code += lines.filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            }
        }
        var called: Set<String> = []
        for (category, patterns) in requiredReasonCalls {
            for pattern in patterns {
                let expression = try NSRegularExpression(pattern: pattern)
                if expression.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil {
                    called.insert(category)
                }
            }
        }
        return called
    }

    @Test func theSDKManifestIsPackagedWithTheModule() throws {
        let packaged = try #require(Bundle.module.url(forResource: "PrivacyInfo", withExtension: "xcprivacy"))
        let source = Self.sourcesDirectory.appendingPathComponent("ZeroPiiSDK/PrivacyInfo.xcprivacy")
        #expect(try Data(contentsOf: packaged) == Data(contentsOf: source))
    }

    @Test func theSDKManifestDeclaresNoTrackingAndThePersonalDataSentForTokenization() throws {
        let manifest = try Self.manifest(ofModule: "ZeroPiiSDK")
        #expect(
            Set(manifest.keys) == [
                "NSPrivacyTracking", "NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes",
                "NSPrivacyAccessedAPITypes",
            ]
        )
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        #expect((manifest["NSPrivacyTrackingDomains"] as? [String])?.isEmpty == true)

        let collected = try #require(manifest["NSPrivacyCollectedDataTypes"] as? [[String: Any]])
        let types = collected.compactMap { $0["NSPrivacyCollectedDataType"] as? String }
        #expect(
            Set(types) == [
                "NSPrivacyCollectedDataTypeName", "NSPrivacyCollectedDataTypeEmailAddress",
                "NSPrivacyCollectedDataTypePhoneNumber", "NSPrivacyCollectedDataTypeUserID",
            ]
        )
        #expect(types.count == collected.count)
        for entry in collected {
            // The values identify the user (linked), are never used for tracking, and are sent
            // only to get their tokens back (app functionality).
            #expect(entry["NSPrivacyCollectedDataTypeLinked"] as? Bool == true)
            #expect(entry["NSPrivacyCollectedDataTypeTracking"] as? Bool == false)
            #expect(
                entry["NSPrivacyCollectedDataTypePurposes"] as? [String] == [
                    "NSPrivacyCollectedDataTypePurposeAppFunctionality"
                ]
            )
        }
        #expect(try Self.accessedAPIs(manifest) == ["NSPrivacyAccessedAPICategorySystemBootTime": ["35F9.1"]])
    }

    @Test func theAuthManifestDeclaresTheBootTimeClockAndNothingElse() throws {
        let manifest = try Self.manifest(ofModule: "ZeroPiiAuth")
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        #expect((manifest["NSPrivacyTrackingDomains"] as? [String])?.isEmpty == true)
        #expect((manifest["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true)
        #expect(try Self.accessedAPIs(manifest) == ["NSPrivacyAccessedAPICategorySystemBootTime": ["35F9.1"]])
    }

    /// Every required-reason API the shipped code calls is declared, and nothing is
    /// declared that the code does not call.
    @Test func theDeclaredRequiredReasonAPIsAreTheOnesTheCodeCalls() throws {
        let sdkCalls = try Self.categoriesCalled(byModules: Self.shippedModules)
        #expect(sdkCalls.contains("NSPrivacyAccessedAPICategorySystemBootTime"))
        #expect(Set(try Self.accessedAPIs(Self.manifest(ofModule: "ZeroPiiSDK")).keys) == sdkCalls)
        let authCalls = try Self.categoriesCalled(byModules: ["ZeroPiiAuth"])
        #expect(Set(try Self.accessedAPIs(Self.manifest(ofModule: "ZeroPiiAuth")).keys) == authCalls)
    }
}
