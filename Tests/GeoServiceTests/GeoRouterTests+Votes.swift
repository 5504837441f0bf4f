import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import Testing

@testable import GeoService

extension GeoRouterTests {
    struct CommentBody: Decodable {
        var id: String
        var score: Int
        var upVotes: Int
        var downVotes: Int
        var myVote: Int
    }

    struct DenBody: Decodable {
        var upVotesEarned: Int
        var karma: Int
    }

    func get<T: Decodable>(
        _ type: T.Type, _ client: some TestClientProtocol, _ path: String, as user: String,
        method: HTTPRequest.Method = .get, json: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> T {
        var headers: HTTPFields = [.authorization: "Bearer \(user)"]
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(
            uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }
        ) { response in
            #expect(response.status == status, "\(path)")
            return try JSONDecoder().decode(T.self, from: Data(response.body.readableBytesView))
        }
    }

    /// A comment's vote: members other than its writer, one each, shown with my vote and never who voted.
    @Test func commentVotesAreForOtherMembersAndShowMineOnly() async throws {
        // given: ann's pack and post, bob's comment; cat a member, dan not
        let pack = try await pack()
        for user in ["bob", "cat"] { _ = try await database.join(pack, user: user, at: nil, now: now) }
        let post = try await database.createPost(
            pack: pack, author: "ann", title: "t", body: "b", tags: [], at: nil, admit: {}, now: now
        ).post.id!
        let comment = try await database.createComment(
            on: post, author: "bob", body: "c", at: nil, admit: {}, now: now
        ).comment.id!
        try await app().test(.router) { client async throws in
            let vote = GeoPaths.comments + "/\(comment)/vote"
            // then: others are refused, bad values named
            #expect(try await call(client, .put, vote, as: "bob", json: #"{"value":1}"#).problem?.code == "own_item")
            let stranger = try await call(client, .put, vote, as: "dan", json: #"{"value":1}"#)
            #expect(stranger.problem?.detail == "Join the pack to vote in it.")
            #expect(
                try await call(client, .put, vote, as: "cat", json: #"{"value":5}"#).problem?.code == "invalid_value")
            #expect(
                try await call(client, .put, GeoPaths.comments + "/999/vote", as: "cat", json: #"{"value":1}"#)
                    .problem?.code == "not_found")
            // when: cat votes up
            let voted = try await get(CommentBody.self, client, vote, as: "cat", method: .put, json: #"{"value":1}"#)
            #expect(voted.score == 1 && voted.upVotes == 1 && voted.myVote == 1)
            // then: the comments show the score to all and the vote to its voter only
            let path = GeoPaths.posts + "/\(post)/comments"
            let mine = try await get(GeoPage<CommentBody>.self, client, path, as: "cat").items
            #expect(mine.map(\.myVote) == [1])
            let theirs = try await get(GeoPage<CommentBody>.self, client, path, as: "ann").items
            #expect(theirs.map(\.myVote) == [0])
            #expect(theirs.map(\.score) == [1])
            // and the den of each shows their own karma: bob's comment earned 1, ann's post counts 2
            #expect(try await get(DenBody.self, client, GeoPaths.den, as: "bob").karma == 1)
            let ann = try await get(DenBody.self, client, GeoPaths.den, as: "ann")
            #expect(ann.karma == 2 && ann.upVotesEarned == 0)
        }
    }

    struct GeoPage<Item: Decodable>: Decodable {
        var items: [Item]
    }
}
