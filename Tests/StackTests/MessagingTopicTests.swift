import Foundation
import PlatformKit
import TestSupport
import Testing

/// Topics, follow/mute and the notices they decide, and keyword search, through the gateway.
@Suite struct MessagingTopicTests {
    @Test func topicsOrganiseAGroup() async throws {
        try await MessagingWorld.run { world in
            let id = try await world.group(world.ann, with: [world.bob, world.cat])
            // given ann creates a topic: she follows it
            let created = try await world.api.post(
                world.path(id, "/topics"), token: world.ann.accessToken, json: ["name": "Dinner"])
            #expect(created.status == 201)
            let dinnerTopic = try created.decode(WireTopic.self)
            let dinner = dinnerTopic.id
            #expect(dinnerTopic.policy == "followed")
            #expect(dinnerTopic.name == "Dinner")
            #expect(dinnerTopic.conversationId == id)
            #expect(
                try await world.api.post(
                    world.path(id, "/topics"), token: world.bob.accessToken, json: ["name": "dinner"]
                ).problem?.code == "topic_exists")
            #expect(
                try await world.api.post(world.path(id, "/topics"), token: world.bob.accessToken, json: ["name": ""])
                    .status == 400)
            #expect(
                try await world.api.post(world.path(id, "/topics"), token: world.dan.accessToken, json: ["name": "x"])
                    .status == 404)
            // messages go into topics by id, by a leading #tag (creating it), or by name
            try await world.message(world.ann, id, "pizza or sushi?", topicId: dinner)
            let tagged = try await world.send(world.bob, id, "#flights I booked mine")
            let taggedMessage = try tagged.decode(WireMessage.self)
            #expect(taggedMessage.topic == "flights")
            #expect(taggedMessage.text == "I booked mine")
            let flights = try #require(taggedMessage.topicId)
            #expect(try await world.send(world.cat, id, "#DINNER sushi!").decode(WireMessage.self).topicId == dinner)
            #expect(try await world.send(world.cat, id, "no topic here").decode(WireMessage.self).topicId == nil)
            #expect(try await world.send(world.cat, id, "hi", topicId: 999_999).status == 404)
            #expect(try await world.send(world.cat, id, "#flights").problem?.code == "invalid_text")
            // the topic list: latest activity first, my policy and unread count
            let topics = try world.topics(await world.api.get(world.path(id, "/topics"), token: world.bob.accessToken))
            #expect(topics.map(\.name) == ["Dinner", "flights"])
            #expect(topics.map(\.unreadCount) == [2, 0])
            #expect(topics.map(\.policy) == ["inherit", "followed"])
            // a page at a time: the cursor leads to the rest
            let firstTopics = try await world.api.get(world.path(id, "/topics?limit=1"), token: world.bob.accessToken)
                .decode(WirePage<WireTopic>.self)
            #expect(firstTopics.items.map(\.name) == ["Dinner"])
            let topicCursor = try #require(firstTopics.nextCursor)
            let restTopics = try await world.api.get(
                world.path(id, "/topics?limit=1&cursor=\(topicCursor)"), token: world.bob.accessToken
            ).decode(WirePage<WireTopic>.self)
            #expect(restTopics.items.map(\.name) == ["flights"])
            #expect(restTopics.nextCursor == nil)
            #expect(
                try await world.api.get(world.path(id, "/topics?cursor=garbage"), token: world.bob.accessToken)
                    .problem?.code == "invalid_cursor")
            // view messages sorted by topic
            let onlyDinner = try await world.api.get(
                world.path(id, "/messages?topicId=\(dinner)"), token: world.bob.accessToken)
            #expect(try world.texts(onlyDinner) == ["pizza or sushi?", "sushi!"])
            #expect(
                try await world.api.get(world.path(id, "/messages?topicId=999999"), token: world.bob.accessToken).status
                    == 404)
            // reading inside a topic clears that topic only
            let last = try #require(try world.messages(onlyDinner).last?.id)
            let read = try await world.api.post(
                world.path(id, "/read"), token: world.bob.accessToken, json: ["messageId": last, "topicId": dinner])
            let marker = try read.decode(WireReadMarker.self)
            #expect(marker.topicUnreadCount == 0)
            #expect(marker.unreadCount == 1, "the message without a topic is still unread")
            #expect(marker.topicId == dinner)
            let flightsMessage = taggedMessage.id
            #expect(
                try await world.api.post(
                    world.path(id, "/read"), token: world.ann.accessToken,
                    json: ["messageId": flightsMessage, "topicId": dinner]
                ).status == 404)
            // rename and resolve keep the id and read state
            let renamed = try await world.api.patch(
                world.path(id, "/topics/\(dinner)"), token: world.cat.accessToken, json: ["name": "Dinner Friday"])
            let renamedTopic = try renamed.decode(WireTopic.self)
            #expect(renamedTopic.id == dinner)
            #expect(renamedTopic.name == "Dinner Friday")
            let resolved = try await world.api.patch(
                world.path(id, "/topics/\(dinner)"), token: world.bob.accessToken, json: ["resolved": true])
            let resolvedTopic = try resolved.decode(WireTopic.self)
            #expect(resolvedTopic.resolved == true)
            #expect(resolvedTopic.unreadCount == 0)
            #expect(
                try await world.api.patch(
                    world.path(id, "/topics/\(dinner)"), token: world.bob.accessToken, json: ["name": "FLIGHTS"]
                ).problem?.code == "topic_exists")
            #expect(
                try await world.api.patch(
                    world.path(id, "/topics/\(dinner)"), token: world.bob.accessToken, json: [String: String]()
                ).status == 400)
            #expect(
                try await world.api.patch(
                    world.path(id, "/topics/\(flights)"), token: world.dan.accessToken, json: ["resolved": true]
                ).status == 404)
            // topics belong to groups
            let direct = try await world.direct(world.ann, world.bob)
            #expect(
                try await world.api.post(
                    world.path(direct, "/topics"), token: world.ann.accessToken, json: ["name": "x"]
                ).problem?.code == "not_a_group")
            #expect(try await world.send(world.ann, direct, "hi", topicId: dinner).problem?.code == "not_a_group")
        }
    }

    @Test func noticesFollowTheRule() async throws {
        try await MessagingWorld.run { world in
            // given a group where bob follows "plans" and cat mutes it
            let id = try await world.group(world.ann, with: [world.bob, world.cat])
            let plans = try await world.api.post(
                world.path(id, "/topics"), token: world.ann.accessToken, json: ["name": "plans"]
            )
            .decode(WireTopic.self).id
            let policy: (TestUser, String) async throws -> APIResponse = { user, value in
                try await world.api.send(
                    .PUT, world.path(id, "/topics/\(plans)/policy"), token: user.accessToken, json: ["policy": value])
            }
            #expect(try await policy(world.bob, "followed").decode(WireTopic.self).policy == "followed")
            #expect(try await policy(world.cat, "muted").status == 200)
            #expect(try await policy(world.cat, "loud").problem?.code == "invalid_policy")
            #expect(try await policy(world.dan, "muted").status == 404)
            let before = world.notices.all.count
            let notices = { Array(world.notices.all.dropFirst(before)) }
            // when ann writes in the topic: bob (following) is told; cat (muted) and ann (sender) are not
            let first = try await world.message(world.ann, id, "#plans meet at 6")
            #expect(notices().map(\.recipients) == [[world.bob.id]])
            #expect(notices().first?.kind == "messaging.message")
            #expect(notices().first?.idempotencyKey == "message:\(first)")
            #expect(notices().first?.link.contains(id) == true)
            // a mention in a muted topic still stays silent; elsewhere it notifies
            try await world.message(world.ann, id, "#plans @cat are you in?")
            #expect(notices().count == 2 && notices().last?.recipients == [world.bob.id])
            try await world.message(world.ann, id, "@cat, @bob and @nobody: lunch?")
            #expect(notices().last?.kind == "messaging.mention")
            #expect(Set(notices().last?.recipients ?? []) == [world.bob.id, world.cat.id])
            // a message in no followed topic and no mention tells nobody
            let count = notices().count
            try await world.message(world.ann, id, "just chatting")
            #expect(notices().count == count)
            // a muted conversation is silent even for followed topics
            #expect(try await world.api.send(.PUT, world.path(id, "/mute"), token: world.bob.accessToken).status == 200)
            try await world.message(world.ann, id, "#plans changed to 7")
            #expect(notices().count == count)
            // direct messages notify the other person unless muted
            let direct = try await world.direct(world.ann, world.dan)
            try await world.message(world.ann, direct, "hey")
            #expect(notices().last?.recipients == [world.dan.id])
            #expect(notices().last?.kind == "messaging.message")
            #expect(
                try await world.api.send(.PUT, world.path(direct, "/mute"), token: world.dan.accessToken).status == 200)
            try await world.message(world.ann, direct, "hey again")
            #expect(notices().last?.text.contains("hey again") == false)
            // muted topics leave the conversation's unread count, not the topic's
            let cats = try world.topics(await world.api.get(world.path(id, "/topics"), token: world.cat.accessToken))
            #expect(cats.first { $0.id == plans }?.unreadCount == 3)
            #expect(cats.first { $0.id == plans }?.policy == "muted")
            let catsConversation = try await world.api.get(world.path(id), token: world.cat.accessToken)
            #expect(try catsConversation.decode(WireConversation.self).unreadCount == 2)
        }
    }

    @Test func searchFindsOnlyMyConversations() async throws {
        try await MessagingWorld.run { world in
            // given pizza talk in a group (ann, bob, cat) and in ann's direct chat with dan
            let group = try await world.group(world.ann, with: [world.bob, world.cat])
            let withDan = try await world.direct(world.ann, world.dan)
            let food = try await world.api.post(
                world.path(group, "/topics"), token: world.ann.accessToken, json: ["name": "food"]
            )
            .decode(WireTopic.self).id
            try await world.message(world.bob, group, "Pizza <tonight> & beer?", topicId: food)
            try await world.message(world.cat, group, "Pizza, pizza!")
            try await world.message(world.ann, withDan, "secret pizza plan")
            try await world.message(world.ann, withDan, "nothing to see")
            let search: (TestUser, String) async throws -> APIResponse = { user, query in
                try await world.api.get(MessagingPaths.search + "?" + query, token: user.accessToken)
            }
            // ann finds all three, best first (bm25: the dense match outranks the others), snippets escaped and marked
            let mine = try await search(world.ann, "query=pizza")
            #expect(mine.status == 200)
            let hits = try world.hits(mine)
            #expect(hits.count == 3)
            #expect(hits.first?.message.text == "Pizza, pizza!")
            let snippets = hits.map(\.snippet)
            #expect(snippets.contains("<mark>Pizza</mark> &lt;tonight&gt; &amp; beer?"))
            // cat is not in the direct chat: never finds it
            let cats = try world.hits(await search(world.cat, "query=pizza"))
            #expect(cats.count == 2)
            #expect(cats.allSatisfy { $0.message.conversationId == group })
            #expect(try world.hits(await search(world.cat, "query=secret")).isEmpty)
            // a prefix with *, within one conversation or topic
            #expect(try world.hits(await search(world.ann, "query=piz*&conversationId=\(withDan)")).count == 1)
            #expect(
                try world.hits(await search(world.ann, "query=pizza&conversationId=\(group)&topicId=\(food)")).count
                    == 1)
            #expect(try world.hits(await search(world.ann, "query=pizza%20beer")).count == 1)
            // pages
            let first = try await search(world.ann, "query=pizza&limit=2")
            #expect(try world.hits(first).count == 2)
            let next = try await search(
                world.ann,
                "query=pizza&limit=2&cursor=\(try #require(try first.decode(WirePage<WireSearchHit>.self).nextCursor))")
            #expect(try world.hits(next).count == 1)
            // bad inputs and outsiders
            #expect(try await search(world.cat, "query=pizza&conversationId=\(withDan)").status == 404)
            #expect(try await search(world.ann, "query=").problem?.code == "invalid_query")
            #expect(try await search(world.ann, "query=%22%2A").problem?.code == "invalid_query")
            #expect(try await search(world.ann, "query=pizza&cursor=zzz").problem?.code == "invalid_cursor")
            #expect(try await search(world.ann, "").problem?.code == "invalid_query")
            // an edit is searchable at once, a deleted message is gone
            let edited = try #require(try world.hits(await search(world.ann, "query=nothing")).first?.message)
            let editedID = edited.id
            _ = try await world.api.patch(
                world.path(withDan, "/messages/\(editedID)"), token: world.ann.accessToken, json: ["text": "calzone"])
            #expect(try world.hits(await search(world.ann, "query=nothing")).isEmpty)
            #expect(try world.hits(await search(world.ann, "query=calzone")).count == 1)
            _ = try await world.api.delete(world.path(withDan, "/messages/\(editedID)"), token: world.ann.accessToken)
            #expect(try world.hits(await search(world.ann, "query=calzone")).isEmpty)
        }
    }
}
