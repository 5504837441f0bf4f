import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PlatformKit
import Testing

/// An HTTP response as tests look at it.
public struct APIResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data

    /// The body decoded as JSON (RFC 3339 dates).
    public func json<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: body)
    }

    /// The body as a loosely typed JSON object: only for documents read as data (the OpenAPI document walked by
    /// the hostile and contract tests); answers of the API decode into `Wire` types with ``decode(_:)``.
    public var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    /// The RFC 9457 problem, if the body is one (and the content type says so).
    public var problem: Problem? {
        guard headers.first(name: "content-type")?.hasPrefix(Problem.mediaType) == true else { return nil }
        return try? JSONDecoder().decode(Problem.self, from: body)
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Sends requests to one base URL (the gateway, or a service directly).
public struct APIClient: Sendable {
    public let baseURL: String
    /// When set, every answer is checked against its operation in this document and a mismatch is a test issue.
    public let contract: OpenAPIContract?

    public init(baseURL: String, contract: OpenAPIContract? = nil) {
        self.baseURL = baseURL
        self.contract = contract
    }

    /// Sends a request; `json` is encoded as the body, or `body` is sent as is.
    public func send(
        _ method: HTTPMethod, _ path: String, token: String? = nil, json: (any Encodable & Sendable)? = nil,
        body: Data? = nil, headers: [(String, String)] = []
    ) async throws -> APIResponse {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try encoder.encode(json)))
        } else if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        let answer = APIResponse(
            status: Int(response.status.code), headers: response.headers, body: Data(bytes.readableBytesView))
        if let contract {
            let violations = contract.violations(
                method: method.rawValue, path: path, status: answer.status,
                contentType: answer.headers.first(name: "content-type"), body: answer.body)
            for violation in violations {
                Issue.record(
                    "\(method.rawValue) \(path) answered \(answer.status) against the OpenAPI document: \(violation)")
            }
        }
        return answer
    }

    public func get(_ path: String, token: String? = nil, headers: [(String, String)] = []) async throws -> APIResponse
    {
        try await send(.GET, path, token: token, headers: headers)
    }

    public func post(_ path: String, token: String? = nil, json: (any Encodable & Sendable)? = nil) async throws
        -> APIResponse
    {
        try await send(.POST, path, token: token, json: json)
    }

    /// Posts raw text as the body (malformed JSON, wrong types) with a JSON content type.
    public func post(_ path: String, token: String? = nil, raw: String) async throws -> APIResponse {
        try await send(.POST, path, token: token, body: Data(raw.utf8), headers: [("Content-Type", "application/json")])
    }

    public func patch(_ path: String, token: String? = nil, json: (any Encodable & Sendable)? = nil) async throws
        -> APIResponse
    {
        try await send(.PATCH, path, token: token, json: json)
    }

    public func put(_ path: String, token: String? = nil, body: Data) async throws -> APIResponse {
        try await send(.PUT, path, token: token, body: body)
    }

    public func delete(_ path: String, token: String? = nil) async throws -> APIResponse {
        try await send(.DELETE, path, token: token)
    }
}
