import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import PlatformKit

/// Access tokens for router-level tests: a fresh signing key, the verifier that trusts it, and headers that
/// sign a request in as a given user.
public struct RouterTestTokens: Sendable {
    public let keys: JWTKeyCollection
    /// Pass it to the service's `ServiceChassis(verifier:)` so the test's tokens are accepted.
    public let verifier: AccessTokenVerifier
    private let clock: WallClock

    public init(clock: WallClock = .system) async {
        let keys = JWTKeyCollection()
        await keys.add(eddsa: EdDSA.PrivateKey(backing: Curve25519.Signing.PrivateKey()), kid: "router-test")
        self.keys = keys
        self.clock = clock
        verifier = AccessTokenVerifier.local(keys: keys, clock: clock)
    }

    /// `Authorization: Bearer …` for `userID` in session `sessionID`.
    public func headers(_ userID: String, session sessionID: String = "session-1") async throws -> HTTPFields {
        let claims = AccessTokenClaims(
            userID: userID, sessionID: sessionID, roles: [], issuedAt: clock.now, lifetime: 900)
        return [.authorization: "Bearer " + (try await keys.sign(claims, kid: "router-test"))]
    }
}

extension TestClientProtocol {
    /// Sends `body` as `user` (with ``AccessTokenVerifier/userIDTokens(clock:)``, the token is the user's id); the
    /// status, the problem if any, and the JSON object if any.
    public func send(
        _ method: HTTPRequest.Method, _ path: String, as user: String, json body: String? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> (status: HTTPResponse.Status, problem: Problem?, object: [String: Any]) {
        var headers: HTTPFields = [.authorization: "Bearer \(user)"]
        if body != nil { headers[.contentType] = "application/json" }
        headers.append(contentsOf: extra)
        return try await execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }
        ) { response in
            let data = Data(response.body.readableBytesView)
            let problem =
                response.headers[.contentType] == Problem.mediaType
                ? try JSONDecoder().decode(Problem.self, from: data) : nil
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            return (response.status, problem, object)
        }
    }

    /// Sends `body` as `user` and decodes the answer as `T` (a `Wire` type; RFC 3339 dates), as
    /// ``APIResponse/decode(_:)`` does for the whole-stack tests.
    public func decoded<T: Decodable>(
        _ type: T.Type, _ method: HTTPRequest.Method = .get, _ path: String, as user: String, json body: String? = nil
    ) async throws -> T {
        var headers: HTTPFields = [.authorization: "Bearer \(user)"]
        if body != nil { headers[.contentType] = "application/json" }
        return try await execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }
        ) { response in
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(T.self, from: Data(response.body.readableBytesView))
        }
    }

    /// Sends a request that must fail, and decodes its problem.
    public func problem(_ method: HTTPRequest.Method, _ uri: String, _ headers: HTTPFields, _ body: String? = nil)
        async throws -> Problem
    {
        let response = try await execute(
            uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        guard response.headers[.contentType] == Problem.mediaType else {
            throw NotAProblem(
                description: "\(method) \(uri) answered \(response.status): \(String(buffer: response.body))")
        }
        return try JSONDecoder().decode(Problem.self, from: Data(response.body.readableBytesView))
    }
}

/// An answer that should have been a problem was not.
public struct NotAProblem: Error, CustomStringConvertible {
    public var description: String
}
