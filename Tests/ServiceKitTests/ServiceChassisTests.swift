import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import Testing

/// The router every service starts from: problems for every error, request ids, health and metrics.
@Suite struct ServiceChassisTests {
    enum Kind: String, Decodable { case small, large }
    struct Body: Decodable {
        var name: String
        var count: Int
        var tags: [String]?
        var when: Date?
        var day: LocalDay?
        var kind: Kind?
    }
    struct Unexpected: Error {}
    static let metricsToken = "scrape-credential"
    static let scrape: HTTPFields = [.authorization: "Bearer \(metricsToken)"]

    func app() -> some ApplicationProtocol {
        let router = ServiceApplication.router(
            metrics: ServiceMetrics(), openAPIDocument: Data(#"{"openapi":"3.1.0"}"#.utf8), database: nil,
            metricsToken: Self.metricsToken)
        router.post("/decode") { request, context -> HTTPResponse.Status in
            _ = try await request.decode(as: Body.self, context: context)
            return .noContent
        }
        router.get("/conflict") { _, _ -> HTTPResponse.Status in throw Problem.conflict("taken", "It is taken.") }
        router.get("/boom") { _, _ -> HTTPResponse.Status in throw Unexpected() }
        return Application(router: router)
    }

    @Test(arguments: [
        (#"{"name": "x"}"#, "count", "is required."),
        (#"{"name": "x", "count": "two"}"#, "count", "must be a whole number."),
        (#"{"name": "x", "count": 100.5}"#, "count", "must be a whole number within range."),
        (#"{"name": null, "count": 1}"#, "name", "must not be null; must be a string."),
        (#"{"name": "x", "count": 1, "tags": [1]}"#, "tags[0]", "must be a string."),
        (#"{"name": "x", "count": 1, "tags": "a"}"#, "tags", "must be a list."),
        (#"{"name": "x", "count": 1, "when": "yesterday"}"#, "when", "must be a date and time as RFC 3339."),
        (#"{"name": "x", "count": 1, "day": "2023-02-29"}"#, "day", "must be a day as YYYY-MM-DD."),
        (#"{"name": "x", "count": 1, "kind": "huge"}"#, "kind", "is not one of the accepted values."),
        (#"[]"#, "", "must be an object."),
    ])
    func bodiesThatDoNotDecodeNameTheFieldInTheClientsWords(body: String, field: String, reason: String) async throws {
        try await app().test(.router) { client in
            try await client.execute(uri: "/decode", method: .post, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.contentType] == Problem.mediaType)
                let problem = try JSONDecoder().decode(Problem.self, from: Data(response.body.readableBytesView))
                #expect(problem.code == "invalid_body")
                #expect(problem.errors == [Problem.FieldError(field: field, reason: reason)])
                #expect(problem.detail == "\(field.isEmpty ? "the body" : field): \(reason)")
                #expect(problem.detail?.contains("Coding key") == false)
            }
        }
    }

    @Test func aBodyThatIsNotJSONSaysSo() async throws {
        try await app().test(.router) { client in
            try await client.execute(uri: "/decode", method: .post, body: ByteBuffer(string: #"{"name": "x""#)) {
                response in
                let problem = try JSONDecoder().decode(Problem.self, from: Data(response.body.readableBytesView))
                #expect(problem.code == "invalid_body")
                #expect(problem.detail == "The body is not valid JSON.")
                #expect(problem.errors == nil)
            }
        }
    }

    @Test func problemsKeepTheirStatusAndUnexpectedErrorsRevealNothing() async throws {
        try await app().test(.router) { client in
            try await client.execute(uri: "/conflict", method: .get) { response in
                #expect(response.status == .conflict)
            }
            try await client.execute(uri: "/boom", method: .get) { response in
                #expect(response.status == .internalServerError)
                let problem = try JSONDecoder().decode(Problem.self, from: Data(response.body.readableBytesView))
                #expect(problem.code == "internal_error")
                #expect(problem.detail?.contains("Unexpected") == false)
            }
            try await client.execute(uri: "/nowhere", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == Problem.mediaType)
            }
        }
    }

    @Test func requestIDsAreKeptOrMadeAndEchoed() async throws {
        try await app().test(.router) { client in
            try await client.execute(
                uri: "/health/live", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "abc-123"]
            ) { response in
                #expect(response.headers[HTTPField.Name("X-Request-Id")!] == "abc-123")
            }
            try await client.execute(uri: "/health/live", method: .get) { response in
                #expect(response.headers[HTTPField.Name("X-Request-Id")!]?.isEmpty == false)
            }
        }
    }

    @Test func healthMetricsAndTheOpenAPIDocumentAreServed() async throws {
        try await app().test(.router) { client in
            try await client.execute(uri: "/health/ready", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                #expect(String(buffer: response.body) == #"{"openapi":"3.1.0"}"#)
            }
            try await client.execute(uri: "/metrics", method: .get, headers: Self.scrape) { response in
                #expect(
                    String(buffer: response.body).contains(
                        #"http_requests_total{method="GET",route="/health/ready",status="200"} 1"#))
            }
        }
    }

    /// `/metrics` answers the scrape credential only; anyone else, the service credential included, gets what an
    /// unknown path gets.
    @Test func metricsAnswerOnlyTheScrapeCredential() async throws {
        try await app().test(.router) { client in
            let unknown = try await client.execute(uri: "/no-such-path", method: .get)
            for headers: HTTPFields in [
                [:], [.authorization: "Bearer wrong"], [.authorization: Self.metricsToken],
                [.authorization: "Bearer \(Self.metricsToken)x"],
                [HTTPField.Name("X-Internal-Token")!: Self.metricsToken],
            ] {
                let refused = try await client.execute(uri: "/metrics", method: .get, headers: headers)
                #expect(refused.status == .notFound, "\(headers)")
                #expect(String(buffer: refused.body) == String(buffer: unknown.body), "\(headers)")
            }
        }
        let closed = Application(
            router: ServiceApplication.router(metrics: ServiceMetrics(), openAPIDocument: Data(), database: nil))
        try await closed.test(.router) { client in
            let response = try await client.execute(uri: "/metrics", method: .get, headers: Self.scrape)
            #expect(response.status == .notFound, "without a configured credential nobody may")
        }
    }

    /// Any token is a valid method: made-up ones share one series instead of each minting its own.
    @Test func madeUpMethodsShareOneMetricSeries() async throws {
        try await app().test(.router) { client in
            for method in ["BREW", "WHEN", "BREW"] {
                try await client.execute(uri: "/health/live", method: HTTPRequest.Method(method)!) { _ in }
            }
            try await client.execute(uri: "/health/live", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/health/live", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/metrics", method: .get, headers: Self.scrape) { response in
                let text = String(buffer: response.body)
                #expect(!text.contains("BREW") && !text.contains("WHEN"))
                #expect(text.contains(#"http_requests_total{method="other",route="#))
                #expect(text.contains(#"http_requests_total{method="GET",route="/health/live",status="200"} 2"#))
            }
        }
    }
}
