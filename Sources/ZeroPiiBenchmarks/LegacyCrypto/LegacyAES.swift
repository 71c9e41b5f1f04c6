import Foundation

// A frozen copy of ZeroPiiCrypto as it was before the lean request path (issue 18),
// every type renamed with a `Legacy` prefix, so that `zeropii-benchmarks envelope`
// can time the old and the new v1 envelope in the same run. Benchmark code only:
// nothing outside this target uses it, and it goes once the comparison is recorded.

/// The old AES namespace.
enum LegacyAES {}
