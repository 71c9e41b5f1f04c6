import Foundation

// A module of its own under Swift Package Manager; part of the one pod module under CocoaPods.
#if canImport(ZeroPiiModels)
import ZeroPiiModels
#endif
#if canImport(ZeroPiiWire)
import ZeroPiiWire
#endif

/// Typed values and batch limits, checked before any request: each typed value becomes
/// its wire string (`WireValueFormat`), and a batch that is empty, too
/// large or holds a non-finite number fails at once with ``/ZeroPiiModels/ZeroPiiErrorKind/invalidInput``.
extension TokenizationClient {
    func tokenize(_ value: Int) async -> TokenizeResult {
        await tokenize(WireValueFormat.string(value))
    }

    func tokenize(_ value: Int64) async -> TokenizeResult {
        await tokenize(WireValueFormat.string(value))
    }

    func tokenize(_ value: Float) async -> TokenizeResult {
        guard let text = WireValueFormat.string(value) else { return Self.nonFiniteSingle() }
        return await tokenize(text)
    }

    func tokenize(_ value: Double) async -> TokenizeResult {
        guard let text = WireValueFormat.string(value) else { return Self.nonFiniteSingle() }
        return await tokenize(text)
    }

    func tokenize(_ value: Bool) async -> TokenizeResult {
        await tokenize(WireValueFormat.string(value))
    }

    func batchTokenize(_ values: [String]) async -> BatchTokenizeResult {
        if let failure = Self.batchSizeFailure(values.count) { return failure }
        return await sendBatch(values)
    }

    func batchTokenize(_ values: [Int]) async -> BatchTokenizeResult {
        await batchTokenize(values.map(WireValueFormat.string))
    }

    func batchTokenize(_ values: [Int64]) async -> BatchTokenizeResult {
        await batchTokenize(values.map(WireValueFormat.string))
    }

    func batchTokenize(_ values: [Float]) async -> BatchTokenizeResult {
        if let failure = Self.batchSizeFailure(values.count) { return failure }
        let texts = values.compactMap(WireValueFormat.string)
        guard texts.count == values.count else { return Self.nonFiniteBatch() }
        return await sendBatch(texts)
    }

    func batchTokenize(_ values: [Double]) async -> BatchTokenizeResult {
        if let failure = Self.batchSizeFailure(values.count) { return failure }
        let texts = values.compactMap(WireValueFormat.string)
        guard texts.count == values.count else { return Self.nonFiniteBatch() }
        return await sendBatch(texts)
    }

    func batchTokenize(_ values: [Bool]) async -> BatchTokenizeResult {
        await batchTokenize(values.map(WireValueFormat.string))
    }

    private static func batchSizeFailure(_ count: Int) -> BatchTokenizeResult? {
        if count == 0 {
            return BatchTokenizeResult(errorMessage: "a batch must hold at least one value", errorKind: .invalidInput)
        }
        if count > ZeroPiiSDK.maximumBatchSize {
            return BatchTokenizeResult(
                errorMessage: "a batch holds at most \(ZeroPiiSDK.maximumBatchSize) values; this one had \(count)", errorKind: .invalidInput)
        }
        return nil
    }

    private static func nonFiniteSingle() -> TokenizeResult {
        TokenizeResult(errorMessage: "NaN and infinite numbers cannot be tokenized", errorKind: .invalidInput)
    }

    private static func nonFiniteBatch() -> BatchTokenizeResult {
        BatchTokenizeResult(errorMessage: "the batch holds NaN or an infinite number, which cannot be tokenized", errorKind: .invalidInput)
    }
}
