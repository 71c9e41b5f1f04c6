// How Objective-C code reaches the SDK.
//
// CocoaPods (and a framework build) make one module with one generated header, as the
// reference shows. Swift Package Manager gives each module its own generated header, so
// Objective-C imports the modules that declare the classes.
#if __has_include(<CleverTapZeroPiiSDK/CleverTapZeroPiiSDK-Swift.h>)
#import <CleverTapZeroPiiSDK/CleverTapZeroPiiSDK-Swift.h>
#else
@import ZeroPiiAuth;
@import ZeroPiiModels;
@import ZeroPiiRetry;
@import ZeroPiiSDK;
#endif
