/// A transport of this package that ends every send by itself: at the request's
/// `timeout`, measured by the transport's own timer however busy the process is, and at
/// once when the calling task is cancelled.
///
/// The SDK may await such a transport on the caller's own task, with the call's time
/// limit as the request's timeout, instead of running the request in a task of its own
/// that a watchdog can abandon. That saves two thread hand-offs per call. An app's
/// transport is never trusted this way: it may ignore cancellation or block.
package protocol SelfBoundedTransport: HTTPTransport {}
