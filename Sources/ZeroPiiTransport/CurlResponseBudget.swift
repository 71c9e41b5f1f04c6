#if canImport(ZeroPiiCurlShim)
/// The response bytes all of one loop's transfers hold at once, against a limit: a
/// hostile server answering every request with a body just under the per-response cap
/// must not multiply that cap by the connections. Touched only on the loop's thread
/// (libcurl's write callbacks and the loop itself).
final class CurlResponseBudget {
    let limit: Int
    private(set) var used = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes `count` bytes if they fit; false when they do not.
    func take(_ count: Int) -> Bool {
        guard count <= limit - used else { return false }
        used += count
        return true
    }

    func giveBack(_ count: Int) {
        used -= count
    }
}
#endif
