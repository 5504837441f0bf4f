import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import TestSupport
import Testing

@testable import MessagingService

/// Opening a direct conversation on the service's router (`MessagingRouterTests`' fakes): each bad request answers
/// with its status and the problem naming it, and opens nothing.
@Suite struct DirectConversationRouterTests {
    @Test(
        arguments: [
            (#"{"userId":"bob","product":"moon"}"#, 400, "invalid_product"),
            (#"{"userId":"bob"}"#, 400, "invalid_product"),
            (#"{"userId":"ann","product":"wegroup"}"#, 400, "self_conversation"),
            (#"{"userId":"nobody","product":"wegroup"}"#, 404, "not_found"),
            (#"{"username":"nobody","product":"wegroup"}"#, 404, "not_found"),
            (#"{"username":"x","product":"wegroup"}"#, 400, "invalid_username"),
            (#"{"product":"wegroup"}"#, 400, "missing_user"),
            ("{", 400, "invalid_body"),
        ] as [(String, Int, String)])
    func aBadRequestIsNamedAndOpensNothing(body: String, status: Int, code: String) async throws {
        let fixture = try MessagingRouterTests()
        try await fixture.app().test(.router) { client in
            let answer = try await fixture.call(client, .post, MessagingPaths.direct, as: "ann", json: body)
            #expect(answer.status.code == status, "\(body)")
            #expect(answer.problem?.code == code, "\(body): \(String(describing: answer.problem))")
            let listed = try await client.send(.get, MessagingPaths.conversations + "?product=wegroup", as: "ann")
            #expect((listed.object["items"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func aMissingProductIsNamedByItsField() async throws {
        let fixture = try MessagingRouterTests()
        try await fixture.app().test(.router) { client in
            let answer = try await fixture.call(
                client, .post, MessagingPaths.direct, as: "ann", json: #"{"userId":"bob"}"#)
            #expect(answer.problem?.errors?.map(\.field) == ["product"])
        }
    }

    @Test func withoutATokenNothingIsOpened() async throws {
        try await MessagingRouterTests().app().test(.router) { client in
            try await client.execute(
                uri: MessagingPaths.direct, method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"userId":"bob","product":"wegroup"}"#)
            ) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }
}
