// The facade re-exports the modules whose types appear in its API, so `import ZeroPiiSDK`
// (or `import CleverTapZeroPiiSDK`) is all an app needs.
@_exported import ZeroPiiAuth
@_exported import ZeroPiiModels
@_exported import ZeroPiiRetry
@_exported import ZeroPiiTransport
