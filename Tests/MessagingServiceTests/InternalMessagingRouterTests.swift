import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import Testing

@testable import MessagingService

/// The internal members route behind the service credential: members only, and no one else learns who talks.
@Suite struct InternalMessagingRouterTests {
    static let token = "internal-secret"
    let database: any MessagingStore

    init() throws {
        database = try SQLiteMessagingStore(.inMemory)
    }

    func app() -> some ApplicationProtocol {
        let router = ServiceApplication.router(
            metrics: ServiceMetrics(), openAPIDocument: Data("{}".utf8), database: nil)
        let internalOnly = router.group().add(middleware: InternalCredentialMiddleware(token: Self.token))
        InternalMessagingController(store: database).addRoutes(to: internalOnly)
        return Application(router: router)
    }

    func get(_ client: some TestClientProtocol, _ path: String, credential: Bool = true) async throws -> (
        HTTPResponse.Status, String
    ) {
        var headers: HTTPFields = [:]
        if credential { headers[HTTPField.Name(PlatformHeaders.internalToken)!] = Self.token }
        return try await client.execute(uri: path, method: .get, headers: headers) { response in
            (response.status, String(buffer: response.body))
        }
    }

    @Test func membersAnswerAMemberOnly() async throws {
        _ = try await database.createGroup(id: "g", name: "G", by: "ann", members: ["bob", "cat"], now: Date())
        try await app().test(.router) { client async throws in
            let members = MessagingPaths.internalConversations + "/g/members"
            let (status, body) = try await get(client, members + "?viewer=bob")
            #expect(status == .ok)
            let ids = try JSONDecoder().decode([String: [String]].self, from: Data(body.utf8))["ids"]
            #expect(Set(ids ?? []) == ["ann", "bob", "cat"])
            // Not a member, no such conversation: the same 404.
            #expect(try await get(client, members + "?viewer=eve").0 == .notFound)
            #expect(
                try await get(client, MessagingPaths.internalConversations + "/nope/members?viewer=ann").0
                    == .notFound)
            // The viewer is required and bounded; the credential is required.
            for query in ["", "?viewer=", "?viewer=" + String(repeating: "x", count: 65)] {
                let (status, body) = try await get(client, members + query)
                #expect(status == .badRequest)
                #expect(body.contains(#""field":"viewer""#))
            }
            #expect(try await get(client, members + "?viewer=bob", credential: false).0 == .forbidden)
        }
    }
}
