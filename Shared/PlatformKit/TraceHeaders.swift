import Instrumentation
import NIOHTTP1

/// Reads trace context headers (`traceparent`, `tracestate`) from NIO's headers for a tracer.
public struct HTTPHeadersExtractor: Extractor {
    /// An extractor.
    public init() {}

    public func extract(key: String, from carrier: HTTPHeaders) -> String? {
        carrier.first(name: key)
    }
}

/// Writes trace context headers into NIO's headers (an outgoing request's), replacing any already there.
public struct HTTPHeadersInjector: Injector {
    /// An injector.
    public init() {}

    public func inject(_ value: String, forKey key: String, into carrier: inout HTTPHeaders) {
        carrier.replaceOrAdd(name: key, value: value)
    }
}
