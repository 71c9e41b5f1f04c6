// Swift Package Manager only (under CocoaPods and in the XCFramework the SDK is this one
// module, there is no module `ZeroPiiSDK` to import, and its header declares everything).
#if canImport(ObjectiveC) && canImport(ZeroPiiSDK)
import Foundation
import ZeroPiiSDK

/// Makes `@import CleverTapZeroPiiSDK;` give Objective-C the whole SDK under Swift
/// Package Manager, as it does under CocoaPods. It declares nothing to use.
///
/// Objective-C sees a Swift module only through the header the compiler writes for it,
/// and that header declares the module's own `@objc` types. Under Swift Package Manager
/// the classes, protocols and enum live in `ZeroPiiAuth`, `ZeroPiiModels`, `ZeroPiiRetry`
/// and `ZeroPiiSDK`; this module only re-exports them, so its header would be empty. The
/// compiler writes an `@import` of another module into a header only when a declaration
/// there needs that module's definitions: a superclass, an adopted protocol, a category.
/// So one class of each of those modules adopts this empty protocol
/// (``/ZeroPiiAuth/AccessTokenInfo``, ``/ZeroPiiModels/TokenizeResult``,
/// ``/ZeroPiiRetry/DefaultRetryPolicy``, ``/ZeroPiiSDK/ZeroPiiSDK``), and the header of
/// `CleverTapZeroPiiSDK` imports all four. Xcode writes the module map of a package's
/// Swift target with `export *`, so an app's `@import CleverTapZeroPiiSDK;` sees what
/// those imports bring. `swift build` writes it without `export *`: an Objective-C target
/// of a package built that way also imports the four modules itself.
///
/// The conformances only add an empty protocol to four classes; nothing calls through it.
@objc(ZeroPiiObjectiveCImports)
public protocol ZeroPiiObjectiveCImports {}

extension AccessTokenInfo: ZeroPiiObjectiveCImports {}
extension TokenizeResult: ZeroPiiObjectiveCImports {}
extension DefaultRetryPolicy: ZeroPiiObjectiveCImports {}
extension ZeroPiiSDK: ZeroPiiObjectiveCImports {}
#endif
