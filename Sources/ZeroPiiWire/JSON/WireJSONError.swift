import Foundation

/// Why a wire body was not accepted, and where: a reason and a byte offset, never any of
/// the body's content (which may be a personal value).
package struct WireJSONError: Error, Equatable, CustomStringConvertible {
    /// What was wrong.
    package enum Reason: String, Sendable {
        /// The body ends early.
        case unexpectedEnd = "the body ends early"
        /// Bytes follow the JSON value.
        case trailingBytes = "bytes follow the JSON value"
        /// An object was expected.
        case expectedObject = "an object was expected"
        /// An array was expected.
        case expectedArray = "an array was expected"
        /// A key was expected.
        case expectedKey = "a key was expected"
        /// A colon was expected.
        case expectedColon = "a colon was expected"
        /// A comma or the end of the object or array was expected.
        case expectedCommaOrEnd = "a comma or the end of the object or array was expected"
        /// A value was expected.
        case expectedValue = "a value was expected"
        /// A string was expected.
        case expectedString = "a string was expected"
        /// True or false was expected.
        case expectedBool = "true or false was expected"
        /// An integer was expected.
        case expectedInteger = "an integer was expected"
        /// The integer is out of range.
        case integerOutOfRange = "the integer is out of range"
        /// The number is not valid JSON.
        case invalidNumber = "the number is not valid JSON"
        /// A string holds a raw control character.
        case controlCharacterInString = "a string holds a raw control character"
        /// A string is not terminated.
        case unterminatedString = "a string is not terminated"
        /// A string holds an invalid escape.
        case invalidEscape = "a string holds an invalid escape"
        /// A string holds a lone UTF-16 surrogate.
        case loneSurrogate = "a string holds a lone UTF-16 surrogate"
        /// The body is not valid UTF-8.
        case invalidUTF8 = "the body is not valid UTF-8"
        /// Arrays and objects nest too deep.
        case tooDeep = "arrays and objects nest too deep"
        /// An object has a key twice.
        case duplicateKey = "an object has a key twice"
        /// A required key is missing.
        case missingKey = "a required key is missing"
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
