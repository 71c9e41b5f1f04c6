/// Format checks for tokens.
extension String {
    /// The string's format, as a format-preserving token keeps it: every digit becomes
    /// `9`, every lowercase letter `a`, every uppercase (or titlecase) letter `A`, every
    /// letter without case (Han, Arabic, Hangul...) `ℓ`, and every other character stays
    /// as it is. Digits and letters outside ASCII count too (Unicode general categories N
    /// and L), since the mock server replaces them within their script.
    ///
    /// A token from a format-preserving service has the shape of its value, so a test
    /// can check that without knowing the token:
    ///
    /// ```swift
    /// #expect(result.token?.formatShape == "alice@example.com".formatShape)  // "aaaaa@aaaaaaa.aaa"
    /// ```
    public var formatShape: String {
        var shape = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar.properties.generalCategory {
            case .decimalNumber, .letterNumber, .otherNumber: shape.append("9")
            case .lowercaseLetter: shape.append("a")
            case .uppercaseLetter, .titlecaseLetter: shape.append("A")
            case .modifierLetter, .otherLetter: shape.append("ℓ")
            default: shape.append(scalar)
            }
        }
        return String(shape)
    }
}
