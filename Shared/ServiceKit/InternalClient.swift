import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PlatformKit
import Tracing

/// Calls another service's `/internal/...` routes with the service credential, a deadline, the caller's request
/// id and trace context (each call is a client span), decoding JSON replies and problem bodies.
public struct InternalClient: Sendable {
    /// The service this client talks to.
    public let service: ServiceName
    private let address: ServiceAddress
    private let token: String
    private let httpClient: HTTPClient
    private let timeout: TimeAmount

    /// Creates a client for `service` at `baseURL` (e.g. `http://127.0.0.1:8081`). The default timeout is generous:
    /// a loaded peer is slow, not gone, and the gateway gives the whole request 30 seconds; failing after three
    /// turned slow answers into 503s.
    public init(
        service: ServiceName, baseURL: String, token: String, httpClient: HTTPClient = .platform,
        timeout: TimeAmount = .seconds(10)
    ) {
        self.init(
            service: service, address: ServiceAddress(baseURL), token: token, httpClient: httpClient, timeout: timeout)
    }

    /// Creates a client for `service` at `address`, read on each call.
    public init(
        service: ServiceName, address: ServiceAddress, token: String, httpClient: HTTPClient = .platform,
        timeout: TimeAmount = .seconds(10)
    ) {
        self.service = service
        self.address = address
        self.token = token
        self.httpClient = httpClient
        self.timeout = timeout
    }

    /// Sends a JSON body and decodes the JSON reply.
    public func post<Reply: Decodable>(
        _ path: String, body: some Encodable, as reply: Reply.Type = Reply.self, requestID: String? = nil
    ) async throws -> Reply {
        try await send(.POST, path, body: Data(try PlatformJSONWriter.encode(body)), requestID: requestID)
    }

    /// Posts a body whose reply does not matter, once more if the first attempt fails (the caller makes the post
    /// safe to repeat, e.g. with an idempotency key); returns the second attempt's error, `nil` on success.
    public func deliver(_ path: String, body: some Encodable & Sendable) async -> (any Error)? {
        var failure: (any Error)?
        for _ in 1...2 {
            do {
                _ = try await post(path, body: body, as: IgnoredReply.self)
                return nil
            } catch {
                failure = error
            }
        }
        return failure
    }

    /// Posts a JSON body already encoded (an outbox entry's) and ignores the reply; throws unless it is a 2xx.
    public func post(_ path: String, json: Data) async throws {
        let _: IgnoredReply = try await send(.POST, path, body: json, requestID: nil)
    }

    /// Posts a JSON body already encoded (a batch of outbox entries) and decodes the reply.
    public func post<Reply: Decodable>(_ path: String, json: Data, as reply: Reply.Type) async throws -> Reply {
        try await send(.POST, path, body: json, requestID: nil)
    }

    /// Sends a GET and decodes the JSON reply.
    public func get<Reply: Decodable>(_ path: String, as reply: Reply.Type = Reply.self, requestID: String? = nil)
        async throws -> Reply
    {
        try await send(.GET, path, body: nil, requestID: requestID)
    }

    private func send<Reply: Decodable>(_ method: HTTPMethod, _ path: String, body: Data?, requestID: String?)
        async throws -> Reply
    {
        let base = address.url
        var request = HTTPClientRequest(url: (base.hasSuffix("/") ? String(base.dropLast()) : base) + path)
        request.method = method
        request.headers.add(name: PlatformHeaders.internalToken, value: token)
        request.headers.add(name: "Accept", value: "application/json")
        if let requestID = requestID ?? CurrentRequest.id {
            request.headers.add(name: PlatformHeaders.requestID, value: requestID)
        }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        // The span of the service's request, with the service's tracer; outside one (a background job), a new trace.
        let current = InstrumentationContext.current
        let tracer = current?.serviceTracer ?? Observability.tracer
        let span = tracer.startSpan(
            "\(method.rawValue) \(service.rawValue)", context: current ?? .topLevel, ofKind: .client)
        defer { span.end() }
        if span.isRecording {
            span.updateAttributes { attributes in
                attributes["http.request.method"] = method.rawValue
                attributes["url.path"] = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
                attributes["peer.service"] = service.rawValue
            }
        }
        tracer.inject(span.context, into: &request.headers, using: HTTPHeadersInjector())
        let response: HTTPClientResponse
        let payload: ByteBuffer
        do {
            response = try await httpClient.execute(request, timeout: timeout)
            payload = try await response.body.collect(upTo: 16 << 20)
        } catch {
            span.setStatus(SpanStatus(code: .error, message: "unreachable"))
            throw InternalCallError.unreachable(service)
        }
        span.attributes["http.response.status_code"] = Int(response.status.code)
        if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
        guard (200..<300).contains(response.status.code) else {
            let problem = try? PlatformJSON.decoder.decode(Problem.self, from: Data(payload.readableBytesView))
            throw InternalCallError.failed(service, status: Int(response.status.code), problem: problem)
        }
        // A post whose reply does not matter succeeds on any 2xx, with a body or without (204, or 202 with none):
        // taking an empty answer for a failure made `deliver` post every notice twice.
        if let ignored = IgnoredReply() as? Reply { return ignored }
        do {
            return try PlatformJSON.decoder.decode(Reply.self, from: Data(payload.readableBytesView))
        } catch {
            throw InternalCallError.malformedReply(service)
        }
    }
}

/// A reply whose content does not matter: any 2xx answer, whatever its body.
private struct IgnoredReply: Decodable {}

/// Why a call to another service did not produce a reply.
public enum InternalCallError: ProblemConvertible, Sendable {
    /// Nothing answered in time.
    case unreachable(ServiceName)
    /// The service answered with an error status.
    case failed(ServiceName, status: Int, problem: Problem?)
    /// The reply was not the JSON expected.
    case malformedReply(ServiceName)

    /// The problem to answer our own client with: the dependency is unavailable.
    public var problem: Problem {
        switch self {
        case .unreachable(let service), .malformedReply(let service), .failed(let service, _, _):
            Problem.serviceUnavailable(service.rawValue)
        }
    }
}
