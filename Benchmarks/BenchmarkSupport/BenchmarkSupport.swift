import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import JWTKit
import Logging
import NIOCore
import PlatformKit
import ServiceLifecycle

/// `KEEP_DATABASE=1`: a benchmark that passes its database to ``exitRemoving(_:keeping:)`` keeps it, for a look at
/// query plans.
public let keepsDatabase = ProcessInfo.processInfo.environment["KEEP_DATABASE"] != nil

/// Ends the process, removing the benchmark's scratch folder unless ``keepsDatabase`` keeps `database` (its path is
/// then printed). `exit` skips a top-level `defer`, so a benchmark that ended with it left its seeded database
/// (hundreds of megabytes) in the temporary directory.
public func exitRemoving(_ folder: URL, keeping database: String? = nil) -> Never {
    if keepsDatabase, let database {
        print("kept \(database)")
    } else {
        try? FileManager.default.removeItem(at: folder)
    }
    exit(0)
}

/// Runs a service in the background and returns the port it listens on.
public func startService(_ build: (@escaping @Sendable (Int) async -> Void) async throws -> any Service) async throws
    -> Int
{
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let service = try await build { continuation.yield($0) }
    var logger = Logger(label: "benchmark")
    logger.logLevel = .error
    let group = ServiceGroup(configuration: .init(services: [service], logger: logger))
    Task { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    return await iterator.next() ?? 0
}

/// A stand-in identity service: the JWKS of a key the benchmark holds (so it can mint access tokens for
/// any user id) and no profiles.
public struct StandInIdentity: Sendable {
    public let url: String
    private let keys: JWTKeyCollection

    public static func start() async throws -> StandInIdentity {
        let key = Curve25519.Signing.PrivateKey()
        let keys = JWTKeyCollection()
        await keys.add(eddsa: EdDSA.PrivateKey(backing: key), kid: "bench")
        let x = key.publicKey.rawRepresentation.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let jwks = #"{"keys":[{"kty":"OKP","crv":"Ed25519","alg":"EdDSA","use":"sig","kid":"bench","x":"\#(x)"}]}"#
        let router = Router()
        router.get(RouterPath(IdentityPaths.jwks)) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: jwks)))
        }
        router.post(RouterPath(IdentityPaths.internalUsersBatch)) { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"users":[]}"#)))
        }
        var logger = Logger(label: "stand-in-identity")
        logger.logLevel = .error
        let port = try await startService { onListening in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await onListening($0.localAddress?.port ?? 0) }, logger: logger)
        }
        return StandInIdentity(url: "http://127.0.0.1:\(port)", keys: keys)
    }

    /// An access token for `userID`, valid for an hour.
    public func token(for userID: String) async throws -> String {
        let claims = AccessTokenClaims(userID: userID, sessionID: "bench", roles: [], issuedAt: Date(), lifetime: 3_600)
        return try await keys.sign(claims, kid: "bench")
    }
}

/// Sends `count` requests from `concurrency` keep-alive clients and prints requests/s, p50 and p99.
/// `request(i)` makes the i-th request; every answer must be a success (2xx).
public func measure(
    _ name: String, count: Int, concurrency: Int, request: @escaping @Sendable (Int) -> HTTPClientRequest
) async throws {
    let started = ContinuousClock.now
    let latencies = try await withThrowingTaskGroup(of: [Duration].self) { group in
        for worker in 0..<concurrency {
            group.addTask {
                var latencies: [Duration] = []
                for index in stride(from: worker, to: count, by: concurrency) {
                    let start = ContinuousClock.now
                    let response = try await HTTPClient.platform.execute(request(index), timeout: .seconds(30))
                    _ = try await response.body.collect(upTo: 1 << 24)
                    latencies.append(ContinuousClock.now - start)
                    guard (200..<300).contains(response.status.code) else {
                        fatalError("\(name): status \(response.status)")
                    }
                }
                return latencies
            }
        }
        return try await group.reduce(into: []) { $0 += $1 }.sorted()
    }
    let elapsed = ContinuousClock.now - started
    func ms(_ d: Duration) -> String {
        String(format: "%.2f ms", Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15)
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let label = name.padding(toLength: 36, withPad: " ", startingAt: 0)
    print(
        "  \(label) \(String(format: "%8.0f", Double(count) / seconds)) req/s   p50 \(ms(latencies[latencies.count / 2]))   p99 \(ms(latencies[latencies.count * 99 / 100]))"
    )
}

/// A GET with a bearer token or the service credential.
public func get(_ url: String, token: String? = nil, internalToken: String? = nil) -> HTTPClientRequest {
    var request = HTTPClientRequest(url: url)
    if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
    if let internalToken { request.headers.add(name: PlatformHeaders.internalToken, value: internalToken) }
    return request
}

