/// A failure after which every later batch would fail the same way, so a run stops at
/// the first with one line (its description), keeps what was tokenized before it, and
/// exits with status 1: a vault that cannot write, credentials or a setup the API refuses.
protocol RunStop: Error, CustomStringConvertible {}

extension EmbeddedVaultFailure: RunStop {}
extension RejectedCredentials: RunStop {}
