import ZeroPiiMockServer

/// The embedded server's vault could not store tokens (a full disk, a file-size
/// limit): every later request would fail the same way, so the run stops with the
/// vault's own message, which names the file and the system's reason, said once.
struct EmbeddedVaultFailure: Error, CustomStringConvertible {
    let error: VaultError
    /// Where the input stopped being tokenized: "line 30", "value 3".
    let firstNotTokenized: String

    var description: String {
        "\(error), so the run stopped; \(firstNotTokenized) and everything after it were not tokenized"
    }
}
