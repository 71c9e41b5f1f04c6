/// A natural number kept in storage the caller owns (64-bit limbs, least significant
/// first), so the exact arithmetic behind ``JavaDecimalDigits`` needs no heap
/// allocation. The caller sizes the storage for the largest value it will hold; going
/// beyond it is a programming error, not an input error.
struct FixedCapacityNatural {
    private let limbs: UnsafeMutablePointer<UInt64>
    private let capacity: Int
    /// Limbs in use; the most significant one is never zero, and zero has none.
    private var count = 0

    init(storage: UnsafeMutablePointer<UInt64>, capacity: Int) {
        self.limbs = storage
        self.capacity = capacity
    }

    /// Becomes `value × 5^fives × 2^twos`.
    mutating func set(_ value: UInt64, fives: Int, twos: Int) {
        count = 0
        if value != 0 {
            limbs[0] = value
            count = 1
        }
        var remaining = fives
        while remaining > 0 {
            let step = min(remaining, Self.powersOfFive.count - 1)
            multiply(by: Self.powersOfFive[step])
            remaining -= step
        }
        shiftLeft(by: twos)
    }

    /// Becomes a copy of `other`.
    mutating func set(_ other: FixedCapacityNatural) {
        precondition(other.count <= capacity, "FixedCapacityNatural is too small")
        limbs.update(from: other.limbs, count: other.count)
        count = other.count
    }

    /// Becomes `first + second`.
    mutating func setSum(_ first: FixedCapacityNatural, _ second: FixedCapacityNatural) {
        let length = max(first.count, second.count)
        var carry: UInt64 = 0
        for index in 0..<length {
            let left = index < first.count ? first.limbs[index] : 0
            let right = index < second.count ? second.limbs[index] : 0
            let (partial, overflowA) = left.addingReportingOverflow(right)
            let (sum, overflowB) = partial.addingReportingOverflow(carry)
            limbs[index] = sum
            carry = (overflowA ? 1 : 0) + (overflowB ? 1 : 0)
        }
        count = length
        if carry != 0 {
            precondition(count < capacity, "FixedCapacityNatural is too small")
            limbs[count] = carry
            count += 1
        }
    }

    mutating func multiply(by factor: UInt64) {
        var carry: UInt64 = 0
        for index in 0..<count {
            let (high, low) = limbs[index].multipliedFullWidth(by: factor)
            let (sum, overflow) = low.addingReportingOverflow(carry)
            limbs[index] = sum
            carry = high &+ (overflow ? 1 : 0)
        }
        if carry != 0 {
            precondition(count < capacity, "FixedCapacityNatural is too small")
            limbs[count] = carry
            count += 1
        }
    }

    mutating func shiftLeft(by bits: Int) {
        guard count > 0, bits > 0 else { return }
        let wholeLimbs = bits / 64
        let partBits = UInt64(bits % 64)
        let spill = partBits == 0 ? 0 : limbs[count - 1] >> (64 - partBits)
        let newCount = count + wholeLimbs + (spill != 0 ? 1 : 0)
        precondition(newCount <= capacity, "FixedCapacityNatural is too small")
        if spill != 0 { limbs[count + wholeLimbs] = spill }
        var index = count - 1
        while index >= 0 {
            let below = partBits == 0 || index == 0 ? 0 : limbs[index - 1] >> (64 - partBits)
            limbs[index + wholeLimbs] = limbs[index] << partBits | below
            index -= 1
        }
        for index in 0..<wholeLimbs { limbs[index] = 0 }
        count = newCount
    }

    /// Subtracts `other`, which must not be larger.
    mutating func subtract(_ other: FixedCapacityNatural) {
        var borrow = false
        for index in 0..<count {
            let right = index < other.count ? other.limbs[index] : 0
            let (partial, overflowA) = limbs[index].subtractingReportingOverflow(right)
            let (difference, overflowB) = partial.subtractingReportingOverflow(borrow ? 1 : 0)
            limbs[index] = difference
            borrow = overflowA || overflowB
        }
        while count > 0 && limbs[count - 1] == 0 { count -= 1 }
    }

    /// The quotient of `self / divisor` when it is small (a decimal digit), leaving the
    /// remainder in `self`.
    ///
    /// The quotient is first estimated from the two leading limbs of each number (off by
    /// far less than 2^-40 relative), scaled down so that it is never too large, and
    /// taken off in one multiply-and-subtract; the rest, at most one, by subtraction.
    mutating func divideReturningSmallQuotient(by divisor: FixedCapacityNatural) -> Int {
        var quotient = 0
        let top = divisor.count - 1
        if count >= divisor.count && top >= 1 {
            let two64 = 18_446_744_073_709_551_616.0
            func leading(_ number: FixedCapacityNatural) -> Double {
                var value = 0.0
                for index in stride(from: min(number.count - 1, top + 1), through: top - 1, by: -1) {
                    value = value * two64 + Double(number.limbs[index])
                }
                return value
            }
            let estimate = Int(leading(self) / leading(divisor) * (1 - 0x1p-40))
            if estimate > 0 {
                subtract(divisor, times: UInt64(estimate))
                quotient = estimate
            }
        }
        while compare(to: divisor) >= 0 {
            subtract(divisor)
            quotient += 1
        }
        return quotient
    }

    /// Subtracts `other × factor`, which must not be larger.
    private mutating func subtract(_ other: FixedCapacityNatural, times factor: UInt64) {
        var carry: UInt64 = 0
        var borrow = false
        for index in 0..<count {
            var product: UInt64 = 0
            if index < other.count {
                let (high, low) = other.limbs[index].multipliedFullWidth(by: factor)
                let (sum, overflow) = low.addingReportingOverflow(carry)
                product = sum
                carry = high &+ (overflow ? 1 : 0)
            } else {
                product = carry
                carry = 0
            }
            let (partial, overflowA) = limbs[index].subtractingReportingOverflow(product)
            let (difference, overflowB) = partial.subtractingReportingOverflow(borrow ? 1 : 0)
            limbs[index] = difference
            borrow = overflowA || overflowB
        }
        while count > 0 && limbs[count - 1] == 0 { count -= 1 }
    }

    /// -1, 0 or 1 as `self` is less than, equal to or greater than `other`.
    func compare(to other: FixedCapacityNatural) -> Int {
        if count != other.count { return count < other.count ? -1 : 1 }
        var index = count - 1
        while index >= 0 {
            if limbs[index] != other.limbs[index] { return limbs[index] < other.limbs[index] ? -1 : 1 }
            index -= 1
        }
        return 0
    }

    /// 5^0 through 5^27, the largest power of five that fits in 64 bits.
    private static let powersOfFive: [UInt64] = {
        var powers: [UInt64] = [1]
        while powers.count < 28 { powers.append(powers[powers.count - 1] * 5) }
        return powers
    }()
}
