import Foundation

// Each of these is a module of its own under Swift Package Manager; CocoaPods compiles
// every subspec into the one CleverTapZeroPiiSDK module, where they do not exist.
#if canImport(ZeroPiiAuth)
import ZeroPiiAuth
#endif
#if canImport(ZeroPiiLocking)
import ZeroPiiLocking
#endif
#if canImport(ZeroPiiModels)
import ZeroPiiModels
#endif

/// Gathers concurrent single tokenize calls of one client into batch requests
/// (``ZeroPiiConfiguration/Coalescing``).
///
/// Every value asked for and not yet answered has one ``CoalescedSlot``; a second caller
/// of the same value joins it instead of sending the value again. Values gather until
/// the window closes or the batch is full, then travel in one request, which runs in a
/// task of its own: no caller's cancellation reaches it. Each caller's wait is bounded
/// like an uncoalesced call (``BoundedCall``), so its time limit and cancellation end
/// that wait alone.
final class TokenizeCoalescer: Sendable {
    private let window: TimeInterval
    private let maximumBatchSize: Int
    private let clock: any TokenClock
    private let deadlines: CallDeadlines
    private let callTimeLimit: TimeInterval?
    private let logger: SDKLogger
    /// Internal rather than private so that tests can see who is gathering (their
    /// extension of this type reads it).
    let state = Locked(State())

    struct State {
        /// Every value waiting or in flight, and its slot, keyed by the value's UTF-8 bytes:
        /// Swift's `String` equality treats canonically equivalent strings (`é` precomposed
        /// and `e` with a combining accent) as equal, but the wire sends them unchanged and
        /// the server gives them different tokens.
        var slots: [[UInt8]: CoalescedSlot] = [:]
        /// The values of the batch being gathered, in arrival order.
        var gathering: [CoalescedSlot] = []
        /// Counts gathered batches, so a window timer closes only the batch it opened.
        var generation = 0
        var windowTimer: Task<Void, Never>?
        var joins = 0

        /// Ends the batch being gathered and returns it.
        mutating func takeGathering() -> [CoalescedSlot] {
            let batch = gathering
            gathering = []
            generation += 1
            windowTimer?.cancel()
            windowTimer = nil
            return batch
        }
    }

    /// - Parameters:
    ///   - options: the window and batch size.
    ///   - clock: measures the window.
    ///   - deadlines: watches each caller's time limit (the client's, on the same clock).
    ///   - callTimeLimit: seconds one caller may wait; nil for no limit.
    ///   - logger: the SDK's log (counts only, never values).
    init(
        options: ZeroPiiConfiguration.Coalescing, clock: any TokenClock, deadlines: CallDeadlines, callTimeLimit: TimeInterval?,
        logger: SDKLogger
    ) {
        window = options.effectiveWindow
        maximumBatchSize = options.effectiveMaximumBatchSize
        self.clock = clock
        self.deadlines = deadlines
        self.callTimeLimit = callTimeLimit
        self.logger = logger
    }

    /// The result `client` would have given for `value` alone, from a shared request.
    func tokenize(_ value: String, through client: TokenizationClient) async -> TokenizeResult {
        let result = await BoundedCall.run(timeLimit: callTimeLimit, deadlines: deadlines) {
            .success(await self.join(value, through: client).wait())
        }
        switch result {
        case .success(let tokenized): return tokenized
        case .failure(let failure): return Self.result(for: failure)
        }
    }

    /// The slot for `value`: the one already waiting or in flight, or a new one in the
    /// batch being gathered. Sends the batch at once when this value fills it.
    private func join(_ value: String, through client: TokenizationClient) -> CoalescedSlot {
        let (slot, full): (CoalescedSlot, [CoalescedSlot]?) = state.withLock { state in
            state.joins += 1
            let key = Array(value.utf8)
            if let existing = state.slots[key] { return (existing, nil) }
            let slot = CoalescedSlot(value: value)
            state.slots[key] = slot
            state.gathering.append(slot)
            if state.gathering.count >= maximumBatchSize { return (slot, state.takeGathering()) }
            if state.gathering.count == 1 { openWindow(through: client, in: &state) }
            return (slot, nil)
        }
        if let full { start(full, through: client) }
        return slot
    }

    /// Starts the timer that sends the batch just opened; `state` is the value inside the
    /// lock.
    private func openWindow(through client: TokenizationClient, in state: inout State) {
        let opened = state.generation
        let window = window
        state.windowTimer = Task { [clock] in
            do {
                try await clock.sleep(seconds: window)
            } catch {
                return  // the batch filled up and was sent already
            }
            self.closeWindow(opened, through: client)
        }
    }

    private func closeWindow(_ opened: Int, through client: TokenizationClient) {
        let batch: [CoalescedSlot]? = state.withLock { state in
            guard opened == state.generation, !state.gathering.isEmpty else { return nil }
            return state.takeGathering()
        }
        if let batch { start(batch, through: client) }
    }

    private func start(_ batch: [CoalescedSlot], through client: TokenizationClient) {
        logger.debug("coalesced \(batch.count) distinct value\(batch.count == 1 ? "" : "s") into one request")
        // A task of its own, not a child of the caller that filled the batch: cancelling
        // that caller must not cancel the others' request.
        Task { await self.send(batch, through: client) }
    }

    /// Sends `batch` and answers its slots. A lone value takes the single-value endpoint.
    /// A rejection that may concern only some values splits the batch in halves, sent
    /// concurrently, down to single values.
    private func send(_ batch: [CoalescedSlot], through client: TokenizationClient) async {
        if batch.count == 1 {
            finish(batch[0], with: await client.tokenizeAlone(batch[0].value))
            return
        }
        let answer = await client.sendBatch(batch.map(\.value))
        if answer.isSuccess {
            // sendBatch checked one item per value, in order, each naming its value.
            for (slot, item) in zip(batch, answer.results) {
                finish(
                    slot, with: TokenizeResult(token: item.token, exists: item.exists, newlyCreated: item.newlyCreated, dataType: item.dataType))
            }
        } else if Self.mayConcernSomeValues(answer) {
            logger.info(
                "a batch of \(batch.count) coalesced values was rejected (HTTP \(answer.httpStatusCode?.intValue ?? 0)); sending it again in halves")
            let middle = batch.count / 2
            async let first: Void = send(Array(batch[..<middle]), through: client)
            async let second: Void = send(Array(batch[middle...]), through: client)
            _ = await (first, second)
        } else {
            let failure = TokenizeResult(
                errorMessage: answer.errorMessage ?? RequestFailure.unexpected.message, httpStatusCode: answer.httpStatusCode,
                errorKind: answer.errorKind)
            batch.forEach { finish($0, with: failure) }
        }
    }

    /// 400 (bad value) and 413 (too large a body) may be one value's fault, so the
    /// batch is worth splitting; every other failure would fail each half alike.
    private static func mayConcernSomeValues(_ answer: BatchTokenizeResult) -> Bool {
        answer.httpStatusCode == 400 || answer.httpStatusCode == 413
    }

    /// Answers `slot`'s callers; a later caller of the same value starts a new slot.
    private func finish(_ slot: CoalescedSlot, with result: TokenizeResult) {
        state.withLock { state in
            let key = Array(slot.value.utf8)
            if state.slots[key] === slot { state.slots[key] = nil }
        }
        slot.deliver(result)
    }

    private static func result(for failure: RequestFailure) -> TokenizeResult {
        TokenizeResult(errorMessage: failure.message, httpStatusCode: failure.statusCode.map { NSNumber(value: $0) }, errorKind: failure.kind)
    }
}
