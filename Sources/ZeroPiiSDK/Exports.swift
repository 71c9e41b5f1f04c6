// The facade re-exports the modules whose types appear in its API, so `import ZeroPiiSDK`
// (or `import CleverTapZeroPiiSDK`) is all an app needs.
// Under CocoaPods every subspec is compiled into one module, so there is nothing to re-export.
#if canImport(ZeroPiiAuth)
@_exported import ZeroPiiAuth
#endif
#if canImport(ZeroPiiModels)
@_exported import ZeroPiiModels
#endif
#if canImport(ZeroPiiRetry)
@_exported import ZeroPiiRetry
#endif
#if canImport(ZeroPiiTransport)
@_exported import ZeroPiiTransport
#endif
