import Foundation
import Testing

@testable import ZeroPiiAuth

/// ZeroPiiAuth ships its own privacy manifest (its clock is a required-reason API), for
/// apps that use the module without ZeroPiiSDK; its content is checked in ZeroPiiSDKTests.
@Suite struct PrivacyManifestResourceTests {
    @Test func theManifestIsPackagedWithTheModule() throws {
        let packaged = try #require(Bundle.module.url(forResource: "PrivacyInfo", withExtension: "xcprivacy"))
        let source = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ZeroPiiAuth/PrivacyInfo.xcprivacy")
        #expect(try Data(contentsOf: packaged) == Data(contentsOf: source))
        let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: packaged), format: nil)
        #expect((plist as? [String: Any])?["NSPrivacyTracking"] as? Bool == false)
    }
}
