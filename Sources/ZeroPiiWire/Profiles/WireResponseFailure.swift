/// Why a client half could not read a 2xx answer. Nothing of such an answer is used.
package enum WireResponseFailure: Error, Sendable, Equatable {
    /// The answer is in another form than the request's profile (an envelope where
    /// plaintext was sent).
    case unreadable
    /// The answer is plain JSON although the request was encrypted: a downgrade, never
    /// accepted.
    case downgraded
    /// The answer is an envelope that does not open under the request's keys, or does not
    /// belong to the request.
    case undecryptable
}
