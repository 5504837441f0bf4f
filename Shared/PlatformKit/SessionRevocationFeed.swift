import AsyncHTTPClient
import Foundation
import Logging
import NIOCore

/// Long-polls identity's ended sessions into an ``AccessTokenVerifier`` until its task is cancelled.
///
/// The first call asks for every revocation still in force (so a restarted gateway or service forgets
/// none), then for those after the last sequence seen; identity answers as soon as one is written. While
/// identity cannot be reached the loop retries with a growing pause (up to 5 s) and logs, and tokens are
/// judged by what it learned so far (fail open): refusing every token would turn an identity outage into a
/// platform outage. Sessions ended meanwhile are refused as soon as the feed reconnects, since identity
/// records them in the same transaction that ends them.
public struct SessionRevocationFeed: Sendable {
    private let url: String
    private let token: String
    private let verifier: AccessTokenVerifier
    private let httpClient: HTTPClient
    private let loop: LongPollLoop
    private let wait: Int

    /// A feed from identity at `identityURL` (base URL) with the service credential `token` into `verifier`.
    public init(
        identityURL: String, token: String, verifier: AccessTokenVerifier, httpClient: HTTPClient = .platform,
        logger: Logger, wait: Int = 20
    ) {
        self.url = identityURL + IdentityPaths.internalSessionRevocations
        self.token = token
        self.verifier = verifier
        self.httpClient = httpClient
        self.loop = LongPollLoop(
            name: "session revocation feed", consequence: "ended sessions may be accepted until it recovers",
            logger: logger)
        self.wait = wait
    }

    /// Runs until the task is cancelled; never throws.
    public func run() async {
        await loop.run { after in
            let page = try await fetch(after: after)
            verifier.endSessions(page.items)
            // A sequence lower than ours means identity's store was replaced: read it all again.
            return page.last < (after ?? 0) ? nil : page.last
        }
    }

    private func fetch(after: Int64?) async throws -> SessionRevocationPage {
        var request = HTTPClientRequest(url: url + (after.map { "?after=\($0)&wait=\(wait)" } ?? ""))
        request.headers.add(name: PlatformHeaders.internalToken, value: token)
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await httpClient.execute(request, timeout: .seconds(Int64(wait) + 10))
        let body = try await response.body.collect(upTo: 16 << 20)
        guard response.status == .ok else {
            throw SessionRevocationFeedError.unexpectedStatus(Int(response.status.code))
        }
        return try Self.decoder.decode(SessionRevocationPage.self, from: Data(body.readableBytesView))
    }

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

/// Why a poll of the revocation feed failed.
public enum SessionRevocationFeedError: Error, Sendable {
    /// Identity answered with a status other than 200.
    case unexpectedStatus(Int)
}
