/// Where a vault looks up the fingerprints of the values it has seen: a set in memory
/// for a vault without a file, ``VaultIndex`` on disk beside a vault file.
protocol FingerprintIndex: AnyObject {
    /// How many distinct fingerprints are in the index.
    var count: Int { get }
    func contains(_ fingerprint: Fingerprint) throws -> Bool
    /// Makes room for `additional` more fingerprints; called before their record is
    /// written, so that the log at `position` is exactly what the index holds.
    func reserveCapacity(adding additional: Int, loggedUpTo position: VaultFile.Position) throws
    /// Adds a fingerprint that ``contains(_:)`` said is absent.
    func insert(_ fingerprint: Fingerprint) throws
}
