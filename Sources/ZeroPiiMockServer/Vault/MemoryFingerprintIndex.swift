/// The fingerprints of a vault without a file, in memory.
final class MemoryFingerprintIndex: FingerprintIndex {
    private var fingerprints = Set<Fingerprint>()

    var count: Int { fingerprints.count }

    func contains(_ fingerprint: Fingerprint) -> Bool { fingerprints.contains(fingerprint) }

    func reserveCapacity(adding additional: Int, loggedUpTo position: VaultFile.Position) {}

    func insert(_ fingerprint: Fingerprint) { fingerprints.insert(fingerprint) }
}
