import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import IdentityService

/// A profile's and a picture's refusals, on the service as production builds it (`IdentityRouterTests`).
@Suite struct ProfileRouterTests {
    let router = IdentityRouterTests()

    @Test(arguments: StoreKind.allCases)
    func aTakenUsernameCannotBeChosenWhateverItsCase(kind: StoreKind) async throws {
        try await router.app(kind).test(.router) { client in
            let alice = try await router.register(client, "alice")
            _ = try await router.register(client, "bob")
            let taken = try await client.send(
                .patch, IdentityPaths.me, as: alice.accessToken, json: #"{"username":"Bob"}"#)
            #expect(taken.status == .conflict)
            #expect(taken.problem?.code == "username_taken")
            let renamed = try await client.send(
                .patch, IdentityPaths.me, as: alice.accessToken, json: #"{"username":"alice.w"}"#)
            #expect(renamed.object["username"] as? String == "alice.w")
        }
    }

    @Test func anotherUsersProfileShowsOnlyPublicFields() async throws {
        try await router.app().test(.router) { client in
            let alice = try await router.register(client, "alice")
            let bob = try await router.register(client, "bob")
            let profile = try await client.send(.get, IdentityPaths.users + "/" + alice.user.id, as: bob.accessToken)
            #expect(profile.status == .ok)
            #expect(profile.object["username"] as? String == "alice")
            #expect(profile.object["email"] == nil)
            let unknown = try await client.send(.get, IdentityPaths.users + "/no-such-id", as: bob.accessToken)
            #expect(unknown.status == .notFound)
            #expect(unknown.problem?.code == "not_found")
            try await client.execute(uri: IdentityPaths.users + "/" + alice.user.id, method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test func fakeEmptyAndOversizedPicturesAreRefusedByNameAndKeepTheOldOne() async throws {
        try await router.app().test(.router) { client in
            let alice = try await router.register(client, "alice")
            let png = TestImages.png(size: 100)
            func put(_ body: Data) async throws -> (status: HTTPResponse.Status, code: String?) {
                try await client.execute(
                    uri: IdentityPaths.me + "/avatar", method: .put, headers: alice.headers,
                    body: ByteBuffer(data: body)
                ) { response in
                    let problem = try? JSONDecoder().decode(Problem.self, from: Data(response.body.readableBytesView))
                    return (response.status, problem?.code)
                }
            }
            #expect(try await put(png).status == .ok)
            let fake = try await put(Data("<svg onload=alert(1)>".utf8))
            #expect(fake.status == .unsupportedMediaType)
            #expect(fake.code == "unsupported_media_type")
            let empty = try await put(Data())
            #expect(empty.status == .badRequest)
            #expect(empty.code == "empty_image")
            let huge = try await put(png + Data(count: 2 << 20))
            #expect(huge.status == .contentTooLarge)
            #expect(huge.code == "payload_too_large")
            try await client.execute(
                uri: "/v1/users/\(alice.user.id)/avatar", method: .get, headers: alice.headers
            ) { response in
                #expect(Data(response.body.readableBytesView) == png)
            }
        }
    }
}
