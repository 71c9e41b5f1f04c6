// The Swift overlay of the stand-in Foundation (see module.modulemap): what Apple's
// Foundation overlay adds to the Objective-C classes, reduced to what the SDK's sources
// use. The value types (Data, Date, URL, JSONEncoder, ...) come from the toolchain's
// FoundationEssentials, as in Apple's Foundation. The bridging conformances tell the
// compiler that String, Array and Dictionary cross to Objective-C as NSString, NSArray
// and NSDictionary, which is all the header generation needs.
//
// Compiled only to type-check the SDK for Scripts/objc-header-check.py: no function body
// here is ever run, so they trap.
@_exported import Dispatch
@_exported import Foundation
@_exported import FoundationEssentials
@_exported import ObjectiveC

private func standIn() -> Never {
    fatalError("stand-in Foundation: type-checking only")
}

extension String: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSString { standIn() }
    public static func _forceBridgeFromObjectiveC(_ source: NSString, result: inout String?) { standIn() }
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSString, result: inout String?) -> Bool {
        standIn()
    }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSString?) -> String { standIn() }
}

extension Array: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSArray { standIn() }
    public static func _forceBridgeFromObjectiveC(_ source: NSArray, result: inout [Element]?) {
        standIn()
    }
    public static func _conditionallyBridgeFromObjectiveC(
        _ source: NSArray, result: inout [Element]?
    )
        -> Bool
    { standIn() }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSArray?) -> [Element] {
        standIn()
    }
}

// Numbers cross to Objective-C as NSNumber inside collections, as in Apple's overlay.
extension Int: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSNumber { standIn() }
    public static func _forceBridgeFromObjectiveC(_ source: NSNumber, result: inout Int?) { standIn() }
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSNumber, result: inout Int?) -> Bool { standIn() }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSNumber?) -> Int { standIn() }
}

extension Int64: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSNumber { standIn() }
    public static func _forceBridgeFromObjectiveC(_ source: NSNumber, result: inout Int64?) { standIn() }
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSNumber, result: inout Int64?) -> Bool {
        standIn()
    }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSNumber?) -> Int64 { standIn() }
}

extension Float: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSNumber { standIn() }
    public static func _forceBridgeFromObjectiveC(_ source: NSNumber, result: inout Float?) { standIn() }
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSNumber, result: inout Float?) -> Bool {
        standIn()
    }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSNumber?) -> Float { standIn() }
}

extension Double: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSNumber { standIn() }
    public static func _forceBridgeFromObjectiveC(_ source: NSNumber, result: inout Double?) { standIn() }
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSNumber, result: inout Double?) -> Bool {
        standIn()
    }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSNumber?) -> Double { standIn() }
}

extension Bool: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSNumber { standIn() }
    public static func _forceBridgeFromObjectiveC(_ source: NSNumber, result: inout Bool?) { standIn() }
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSNumber, result: inout Bool?) -> Bool {
        standIn()
    }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSNumber?) -> Bool { standIn() }
}

// URLSession's types, as far as the SDK's declarations name them (FoundationNetworking,
// which has them on Linux, is built on the toolchain's own Foundation and cannot load here).
open class URLResponse: NSObject {}
open class HTTPURLResponse: URLResponse {}
open class URLSessionTask: NSObject {}
open class URLSessionDataTask: URLSessionTask {}
open class URLSessionConfiguration: NSObject {}
open class URLSession: NSObject {}

extension NSLocking {
    public func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

// DateFormatter, as far as the SDK uses it (HTTPDate in ZeroPiiRetry).
open class DateFormatter: NSObject {
    open var locale: Locale!
    open var timeZone: TimeZone!
    open var dateFormat: String!
    open func date(from string: String) -> Date? { standIn() }
}
