import Foundation
import Testing

@testable import ZeroPiiSDK

/// The deprecated flag reached through a protocol requirement, which is not deprecated,
/// so that its behaviour stays tested without a deprecation warning (the build treats
/// warnings as errors).
private protocol LegacyPayloadEncryptionFlag {
    var payloadEncryption: Bool { get set }
}

extension ZeroPiiConfiguration: LegacyPayloadEncryptionFlag {}

struct WireProfileConfigurationTests {
    @Test func theDefaultIsProtocolV1WithoutFallback() {
        let configuration = ZeroPiiConfiguration()
        #expect(configuration.wireProfile == .protocolV1)
        #expect(!configuration.allowsPlaintextFallback)
    }

    @Test func theDeprecatedFlagMapsOntoTheProfile() {
        func flag(_ configuration: some LegacyPayloadEncryptionFlag) -> Bool { configuration.payloadEncryption }
        func setting(_ value: Bool, on profile: ZeroPiiWireProfile) -> ZeroPiiWireProfile {
            var configuration = ZeroPiiConfiguration()
            configuration.wireProfile = profile
            var legacy: some LegacyPayloadEncryptionFlag = configuration
            legacy.payloadEncryption = value
            return (legacy as! ZeroPiiConfiguration).wireProfile
        }
        var configuration = ZeroPiiConfiguration()
        #expect(flag(configuration))
        configuration.wireProfile = .cleverTapCompatible
        #expect(flag(configuration))
        configuration.wireProfile = .plaintext
        #expect(!flag(configuration))

        #expect(setting(false, on: .protocolV1) == .plaintext)
        #expect(setting(false, on: .cleverTapCompatible) == .plaintext)
        #expect(setting(true, on: .plaintext) == .protocolV1)
        #expect(setting(true, on: .cleverTapCompatible) == .cleverTapCompatible)
        #expect(setting(true, on: .protocolV1) == .protocolV1)
    }

    @Test func theToolNamesOfTheProfiles() {
        #expect(ZeroPiiWireProfile.allCases.map(\.rawValue) == ["v1", "clevertap", "plaintext"])
    }
}
