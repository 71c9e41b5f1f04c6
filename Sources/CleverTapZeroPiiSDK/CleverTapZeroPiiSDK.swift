// The module name the released SDK documents: `import CleverTapZeroPiiSDK` gives the
// whole public API (ZeroPiiSDK, the result types, AccessTokenProvider, RetryPolicy).
// Under CocoaPods the SDK's sources are compiled into this module itself.
#if canImport(ZeroPiiSDK)
@_exported import ZeroPiiSDK
#endif
