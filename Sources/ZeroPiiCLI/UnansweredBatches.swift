import ZeroPiiSDK

/// The `tokenize` command's circuit breaker: after ``limit`` batches in a row got no HTTP
/// response, the server is taken to be gone and the rest of the input is not sent.
/// Without it every remaining batch would wait out its own retries against a dead
/// server, two seconds and more each. A failure that sending again cannot change (a
/// certificate or pin that does not verify) stops the run at the first batch.
///
/// Once a batch got none (``isSuspect``), the tokenizers let the batches in flight end
/// before they send another, so a run with several batches in flight stops after
/// `max(limit, concurrency)` batches rather than sending more while answers that would
/// stop it wait to be read.
struct UnansweredBatches {
    static let limit = 3

    private var inARow = 0
    /// What the last unanswered batch's failure was, in words.
    private var lastReason = ""
    /// Whether the last unanswered batch's failure cannot change by sending again.
    private var lastIsPermanent = false

    /// Counts `result`: a batch that failed with no HTTP response adds one, any other
    /// answer starts the count again. `reason` is the failure in words, if it failed.
    mutating func record(_ result: BatchTokenizeResult?, reason: @autoclosure () -> String) {
        guard let result, !result.isSuccess, result.httpStatusCode == nil, result.errorKind == .network else {
            inARow = 0
            lastIsPermanent = false
            return
        }
        inARow += 1
        lastReason = reason()
        lastIsPermanent = NetworkFailureText.isPermanent(result.errorMessage ?? "")
    }

    /// Whether the server is taken to be gone. (A failure that cannot change stops the run
    /// where its batch is read, by ``permanentStop(server:firstNotTokenized:)``, before
    /// another batch is sent.)
    var serverIsGone: Bool { inARow >= Self.limit }

    /// Whether the last batch counted got no HTTP response.
    var isSuspect: Bool { inARow > 0 }

    /// The stop for the batch just counted when its failure cannot change by sending again
    /// (a certificate or pin that does not verify), nil otherwise: thrown where that
    /// batch's answer is read, so a run whose whole input is already in flight stops at
    /// it too, rather than reporting each batch. `firstNotTokenized` names the batch's
    /// first line or value.
    func permanentStop(server: String, firstNotTokenized: String) -> ServerStoppedAnswering? {
        guard lastIsPermanent else { return nil }
        return ServerStoppedAnswering(
            description: "the server at \(server) cannot be reached this way (\(lastReason)). The run stopped: "
                + "\(firstNotTokenized) and everything after it were not tokenized")
    }

    /// The stop that ends the run: `server` as the messages show it, `unsent` the first
    /// part of the input that was not sent ("lines 3001", "values 4").
    func stop(server: String, unsent: String) -> ServerStoppedAnswering {
        ServerStoppedAnswering(
            description: "no HTTP response from the server at \(server) to \(inARow) batches in a row (\(lastReason)); "
                + "\(unsent) to the end were not sent")
    }
}

/// A run ended by ``UnansweredBatches``.
struct ServerStoppedAnswering: RunStop {
    let description: String
}
