// The module name the released SDK documents: `import CleverTapZeroPiiSDK` gives the
// whole public API (ZeroPiiSDK, the result types, AccessTokenProvider, RetryPolicy).
@_exported import ZeroPiiSDK
