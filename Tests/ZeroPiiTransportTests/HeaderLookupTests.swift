import Foundation
import Testing
import ZeroPiiTransport

/// Header names are found whatever their ASCII case, and only then.
struct HeaderLookupTests {
    @Test(arguments: ["X-ZeroPii-Encryption", "x-zeropii-encryption", "X-ZEROPII-ENCRYPTION", "x-ZeRoPiI-eNcRyPtIoN"])
    func aNameMatchesInAnyASCIICase(_ name: String) {
        let response = TransportResponse(
            statusCode: 200, headers: ["Content-Type": "application/json", "x-zeropii-Encryption": "v1"], body: Data())
        #expect(response.header(name) == "v1")
        let request = TransportRequest(method: "POST", url: URL(string: "https://tokens.example.test/")!, headers: ["X-ZEROPII-encryption": "v1"])
        #expect(request.header(name) == "v1")
    }

    @Test func namesThatDifferInMoreThanCaseDoNotMatch() {
        let response = TransportResponse(
            statusCode: 200, headers: ["X-ZeroPii-Encryption": "v1", "Retry-After": "3", "Date": "x", "É-Tag": "accented"], body: Data())
        #expect(response.header("X-ZeroPii-Encryptio") == nil)
        #expect(response.header("X-ZeroPii-Encryptionn") == nil)
        #expect(response.header("X_ZeroPii_Encryption") == nil)
        // `[` and `{` differ from `{` and `[` by the 0x20 bit too, but are not letters.
        #expect(TransportResponse(statusCode: 200, headers: ["a[": "1"], body: Data()).header("A{") == nil)
        #expect(TransportResponse(statusCode: 200, headers: ["@": "1"], body: Data()).header("`") == nil)
        // Only ASCII letters fold: a non-ASCII name must match byte for byte.
        #expect(response.header("É-Tag") == "accented")
        #expect(response.header("é-tag") == nil)
        #expect(response.header("retry-after") == "3" && response.header("DATE") == "x")
        #expect(response.header("") == nil)
    }
}
