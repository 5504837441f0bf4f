import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PlatformKit

/// The request context every service's routes start from: per-request facts only, never dependencies.
public struct ServiceRequestContext: RequestContext, PlatformRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The verified caller, set by ``AccessTokenMiddleware`` on authenticated routes.
    public var user: AuthenticatedUser?
    /// The address of the connected peer (the gateway, in production).
    public var peerAddress: String?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.peerAddress = source.channel.remoteAddress?.ipAddress
    }
}

/// The context of a route that requires a signed-in user: "signed in" is a fact the compiler checks.
public struct AuthenticatedContext: ChildRequestContext, PlatformRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The verified caller.
    public let user: AuthenticatedUser
    /// The address of the connected peer.
    public let peerAddress: String?

    public init(context: ServiceRequestContext) throws {
        guard let user = context.user else { throw Problem.unauthorized() }
        self.coreContext = context.coreContext
        self.user = user
        self.peerAddress = context.peerAddress
    }
}

/// What every platform context shares: JSON with RFC 3339 dates, and a 1 MiB default body limit.
public protocol PlatformRequestContext: RequestContext {
    /// The address of the connected peer.
    var peerAddress: String? { get }
}

extension PlatformRequestContext {
    public var requestDecoder: PlatformRequestDecoder { PlatformRequestDecoder() }
    public var responseEncoder: PlatformResponseEncoder { PlatformResponseEncoder() }
    public var maxUploadSize: Int { 1 << 20 }

    /// The client's address: the gateway's `X-Forwarded-For` when present, else the peer.
    public func clientAddress(_ request: Request) -> String {
        if let forwarded = request.headers[HTTPField.Name(PlatformHeaders.forwardedFor)!] {
            let first = forwarded.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
            if let first, !first.isEmpty { return first }
        }
        return peerAddress ?? "unknown"
    }

    /// The key rate limits count the client under: its address, an IPv6 client's /64
    /// (``RateLimiter/key(forAddress:)``).
    public func clientKey(_ request: Request) -> String {
        RateLimiter.key(forAddress: clientAddress(request))
    }
}

/// Decodes request bodies with ``PlatformJSON``; a body that does not decode is a 400 problem naming the field
/// (``Problem/invalidBody(_:)``). Hummingbird's own decoder would answer in the decoder's words instead.
public struct PlatformRequestDecoder: RequestDecoder {
    /// A decoder for the platform's JSON bodies.
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws
        -> T
    {
        let body = Data(try await request.body.collect(upTo: context.maxUploadSize).readableBytesView)
        do {
            return try PlatformJSON.decoder.decode(type, from: body)
        } catch let error as DecodingError {
            throw Problem.invalidBody(error, locating: type, in: body)
        }
    }
}
