import Foundation

/// Why a wire body was not accepted, and where: a reason and a byte offset, never any of
/// the body's content (which may be a personal value).
package struct WireJSONError: Error, Equatable, CustomStringConvertible {
    /// What was wrong.
    package enum Reason: String, Sendable {
        case unexpectedEnd = "the body ends early"
        case trailingBytes = "bytes follow the JSON value"
        case expectedObject = "an object was expected"
        case expectedArray = "an array was expected"
        case expectedKey = "a key was expected"
        case expectedColon = "a colon was expected"
        case expectedCommaOrEnd = "a comma or the end of the object or array was expected"
        case expectedValue = "a value was expected"
        case expectedString = "a string was expected"
        case expectedBool = "true or false was expected"
        case expectedInteger = "an integer was expected"
        case integerOutOfRange = "the integer is out of range"
        case invalidNumber = "the number is not valid JSON"
        case controlCharacterInString = "a string holds a raw control character"
        case unterminatedString = "a string is not terminated"
        case invalidEscape = "a string holds an invalid escape"
        case loneSurrogate = "a string holds a lone UTF-16 surrogate"
        case invalidUTF8 = "the body is not valid UTF-8"
        case tooDeep = "arrays and objects nest too deep"
        case duplicateKey = "an object has a key twice"
        case missingKey = "a required key is missing"
        case invalidBase64 = "a field is not canonical Base64"
    }

    /// What was wrong.
    package let reason: Reason
    /// The byte offset in the body where it was found.
    package let offset: Int

    init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// The reason and the byte offset; never any of the body.
    package var description: String { "\(reason.rawValue) (at byte \(offset))" }
}
