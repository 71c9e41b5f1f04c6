extension JavaDecimalDigits {
    /// The digits laid out as Java's `getChars` does: plain decimal with at least one
    /// fractional digit when 10^-3 <= |x| < 10^7, otherwise `d.ddd` with at least one
    /// fractional digit, `E`, and the exponent (`-` when negative, never `+`).
    func javaText(isNegative: Bool) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var length = 0
            func put(_ character: UInt8) {
                buffer[length] = character
                length += 1
            }
            func putDigits(_ range: Range<Int>) {
                for index in range { put(digit(at: index) &+ UInt8(ascii: "0")) }
            }
            if isNegative { put(UInt8(ascii: "-")) }
            if decimalExponent > 0 && decimalExponent < 8 {
                let wholeDigits = min(count, decimalExponent)
                putDigits(0..<wholeDigits)
                if wholeDigits < decimalExponent {
                    for _ in wholeDigits..<decimalExponent { put(UInt8(ascii: "0")) }
                    put(UInt8(ascii: "."))
                    put(UInt8(ascii: "0"))
                } else {
                    put(UInt8(ascii: "."))
                    if wholeDigits < count {
                        putDigits(wholeDigits..<count)
                    } else {
                        put(UInt8(ascii: "0"))
                    }
                }
            } else if decimalExponent <= 0 && decimalExponent > -3 {
                put(UInt8(ascii: "0"))
                put(UInt8(ascii: "."))
                for _ in 0..<(-decimalExponent) { put(UInt8(ascii: "0")) }
                putDigits(0..<count)
            } else {
                putDigits(0..<1)
                put(UInt8(ascii: "."))
                if count > 1 {
                    putDigits(1..<count)
                } else {
                    put(UInt8(ascii: "0"))
                }
                put(UInt8(ascii: "E"))
                var exponent = decimalExponent - 1
                if exponent < 0 {
                    put(UInt8(ascii: "-"))
                    exponent = -exponent
                }
                if exponent >= 100 { put(UInt8(ascii: "0") + UInt8(exponent / 100)) }
                if exponent >= 10 { put(UInt8(ascii: "0") + UInt8(exponent / 10 % 10)) }
                put(UInt8(ascii: "0") + UInt8(exponent % 10))
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<length]), as: UTF8.self)
        }
    }
}
