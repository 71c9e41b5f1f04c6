// How Objective-C code reaches the SDK: the reference's one line, `@import CleverTapZeroPiiSDK;`,
// with CocoaPods, the XCFramework, or Swift Package Manager in Xcode.
//
// Without modules (a CocoaPods build with CLANG_ENABLE_MODULES=NO) there is no @import;
// the pod's generated header declares the whole SDK.
//
// Under Swift Package Manager the header of CleverTapZeroPiiSDK imports the four modules
// that declare the classes (Sources/CleverTapZeroPiiSDK/ObjectiveCImports.swift), and the
// module maps Xcode writes pass those imports on (`export *`). The ones `swift build` writes
// do not, so a package's Objective-C target built by `swift build` (this one, on macOS, in
// Scripts/run-example.sh) imports the modules itself. SwiftPM defines SWIFT_PACKAGE there;
// ZEROPIISDK_SWIFT_H, the include guard of ZeroPiiSDK's generated header, is visible here
// only when the import of CleverTapZeroPiiSDK brought that module.
#if !__has_feature(modules)
#import <CleverTapZeroPiiSDK/CleverTapZeroPiiSDK-Swift.h>
#else
@import CleverTapZeroPiiSDK;
#if defined(SWIFT_PACKAGE) && !defined(ZEROPIISDK_SWIFT_H)
@import ZeroPiiAuth;
@import ZeroPiiModels;
@import ZeroPiiRetry;
@import ZeroPiiSDK;
#endif
#endif
