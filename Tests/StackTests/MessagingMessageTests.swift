import Foundation
import PlatformKit
import TestSupport
import Testing

/// Messages through the gateway: sending, idempotency, editing, deleting, pages around anchors, read markers.
@Suite struct MessagingMessageTests {
    @Test func anEditThatAddsAMentionTellsOnlyTheNewlyMentioned() async throws {
        try await MessagingWorld.run { world in
            let id = try await world.group(world.ann, with: [world.bob, world.cat, world.dan])
            #expect(try await world.api.send(.PUT, world.path(id, "/mute"), token: world.dan.accessToken).status == 200)
            let messageID = try await world.message(world.ann, id, "lunch?")
            let before = world.notices.all.count
            let notices = { Array(world.notices.all.dropFirst(before)) }
            func edit(_ text: String) async throws {
                let response = try await world.api.patch(
                    world.path(id, "/messages/\(messageID)"), token: world.ann.accessToken, json: ["text": text])
                #expect(response.status == 200)
            }
            try await edit("lunch @bob?")
            #expect(notices().map(\.recipients) == [[world.bob.id]])
            #expect(notices().first?.kind == "messaging.mention")
            #expect(notices().first?.idempotencyKey == "message:\(messageID):mention")
            try await edit("lunch @bob?!")
            #expect(notices().count == 1, "bob was mentioned already")
            // cat is new; dan muted the conversation; ann mentioning herself is no news
            try await edit("lunch @bob @cat @dan @ann?")
            #expect(notices().count == 2)
            #expect(notices().last?.recipients == [world.cat.id])
            try await edit("never mind")
            #expect(notices().count == 2)
            #expect(world.notices.live.last?.type == "message.edited")
        }
    }

    @Test func sendEditAndDeleteOwnMessages() async throws {
        try await MessagingWorld.run { world in
            let id = try await world.group(world.ann, with: [world.bob, world.cat])
            // given ann sent a message
            let sent = try await world.send(world.ann, id, "  see you at 8  ")
            #expect(sent.status == 201)
            let sentMessage = try sent.decode(WireMessage.self)
            let messageID = sentMessage.id
            #expect(sentMessage.text == "see you at 8")
            #expect(sentMessage.senderId == world.ann.id)
            #expect(sentMessage.conversationId == id)
            // when someone else edits or deletes it, then they may not
            let message = world.path(id, "/messages/\(messageID)")
            let foreign = try await world.api.patch(message, token: world.bob.accessToken, json: ["text": "mine now"])
            #expect(foreign.status == 403)
            #expect(foreign.problem?.code == "not_your_message")
            #expect(
                try await world.api.delete(message, token: world.bob.accessToken).problem?.code == "not_your_message")
            #expect(try await world.api.patch(message, token: world.eve.accessToken, json: ["text": "x"]).status == 404)
            // the sender edits it
            let edited = try await world.api.patch(
                message, token: world.ann.accessToken, json: ["text": "see you at 9"])
            #expect(edited.status == 200)
            let editedMessage = try edited.decode(WireMessage.self)
            #expect(editedMessage.text == "see you at 9")
            #expect(editedMessage.editedAt != nil)
            #expect(try await world.api.patch(message, token: world.ann.accessToken, json: ["text": ""]).status == 400)
            #expect(
                try await world.api.patch(
                    world.path(id, "/messages/999999"), token: world.ann.accessToken, json: ["text": "x"]
                )
                .status == 404)
            #expect(
                try await world.api.patch(
                    world.path(id, "/messages/abc"), token: world.ann.accessToken, json: ["text": "x"]
                )
                .status == 404)
            let second = try await world.message(world.bob, id, "ok")
            // and deletes it
            #expect(try await world.api.delete(message, token: world.ann.accessToken).status == 204)
            #expect(try await world.api.delete(message, token: world.ann.accessToken).status == 404)
            let list = try await world.api.get(world.path(id, "/messages"), token: world.cat.accessToken)
            #expect(try world.texts(list) == ["ok"])
            #expect(try world.messages(list).first?.id == second)
            // live events reached every member
            let types = world.notices.live.map(\.type)
            #expect(types == ["message.created", "message.edited", "message.created", "message.deleted"])
            #expect(Set(world.notices.live[0].recipients) == [world.ann.id, world.bob.id, world.cat.id])
            let payload = try JSONDecoder().decode(WireMessageDeleted.self, from: world.notices.live[3].payload)
            #expect(payload.messageId == messageID)
            #expect(payload.conversationId == id)
        }
    }

    /// Deleting the newest message does not hand its id to the next one: a read marker, a cursor or a live event that
    /// names an id names one message for good.
    @Test func aDeletedNewestMessagesIdIsNeverReused() async throws {
        try await MessagingWorld.run { world in
            let chat = try await world.direct(world.ann, world.bob)
            let first = try await world.message(world.ann, chat, "one")
            let newest = try await world.message(world.ann, chat, "two")
            #expect(
                try await world.api.delete(world.path(chat, "/messages/\(newest)"), token: world.ann.accessToken).status
                    == 204)
            let next = try await world.message(world.ann, chat, "three")
            #expect(next > newest && newest > first)
            let page = try await world.api.get(world.path(chat, "/messages"), token: world.bob.accessToken)
            #expect(try world.messages(page).map(\.id) == [first, next])
        }
    }

    @Test func badMessagesAreClearErrors() async throws {
        try await MessagingWorld.run { world in
            let id = try await world.direct(world.ann, world.bob)
            #expect(try await world.send(world.ann, id, "").problem?.code == "invalid_text")
            #expect(try await world.send(world.ann, id, " \n ").problem?.code == "invalid_text")
            #expect(
                try await world.send(world.ann, id, String(repeating: "a", count: 10_001)).problem?.code
                    == "invalid_text")
            #expect(try await world.send(world.ann, id, String(repeating: "a", count: 10_000)).status == 201)
            #expect(try await world.send(world.ann, id, "bell \u{7}").problem?.code == "invalid_text")
            #expect(
                try await world.api.post(
                    world.path(id, "/messages"), token: world.ann.accessToken, raw: "{\"text\": 5}"
                ).status == 400)
            #expect(
                try await world.api.post(world.path(id, "/messages"), token: world.ann.accessToken, raw: "not json")
                    .status == 400)
            #expect(
                try await world.send(world.ann, id, "topic in a direct chat", topic: "plans").problem?.code
                    == "not_a_group")
            #expect(try await world.send(world.ann, "no-such-conversation", "hi").status == 404)
            #expect(
                try await world.send(world.ann, id, "hi", key: String(repeating: "k", count: 256)).problem?.code
                    == "invalid_idempotency_key")
            // a leading #tag in a direct conversation is just text
            let tagLike = try await world.send(world.ann, id, "#1 priority").decode(WireMessage.self)
            #expect(tagLike.text == "#1 priority")
            #expect(tagLike.topicId == nil)
        }
    }

    @Test func aRepeatedIdempotencyKeyStoresOneMessage() async throws {
        try await MessagingWorld.run { world in
            let id = try await world.group(world.ann, with: [world.bob, world.cat])
            let first = try await world.send(world.ann, id, "order pizza", key: "retry-1")
            let again = try await world.send(world.ann, id, "order pizza", key: "retry-1")
            #expect(first.status == 201)
            #expect(again.status == 200)
            #expect(try again.decode(WireMessage.self).id == first.decode(WireMessage.self).id)
            // the same key from someone else is their own message
            #expect(try await world.send(world.bob, id, "order pizza", key: "retry-1").status == 201)
            let list = try await world.api.get(world.path(id, "/messages"), token: world.ann.accessToken)
            #expect(try world.texts(list) == ["order pizza", "order pizza"])
            #expect(world.notices.live.filter { $0.type == "message.created" }.count == 2)
        }
    }

    @Test func pagesGoBothWaysAroundAnAnchor() async throws {
        try await MessagingWorld.run { world in
            let id = try await world.direct(world.ann, world.bob)
            var ids: [Int] = []
            for n in 1...25 { ids.append(try await world.message(world.ann, id, "m\(n)")) }
            let get: (String) async throws -> APIResponse = { query in
                try await world.api.get(world.path(id, "/messages") + query, token: world.bob.accessToken)
            }
            // newest: the last ten, oldest first, a cursor back
            let newest = try await get("?limit=10")
            #expect(try world.texts(newest) == (16...25).map { "m\($0)" })
            let newestPage = try newest.decode(WireMessagePage.self)
            #expect(newestPage.foundNewest == true)
            #expect(newestPage.foundOldest == false)
            #expect(newestPage.newerCursor == nil)
            let older = try await get("?limit=10&cursor=\(try #require(newestPage.olderCursor))")
            #expect(try world.texts(older) == (6...15).map { "m\($0)" })
            let oldest = try await get(
                "?limit=10&cursor=\(try #require(try older.decode(WireMessagePage.self).olderCursor))")
            #expect(try world.texts(oldest) == (1...5).map { "m\($0)" })
            let oldestPage = try oldest.decode(WireMessagePage.self)
            #expect(oldestPage.foundOldest == true)
            #expect(oldestPage.olderCursor == nil)
            // and forward again from there
            let forward = try await get("?limit=10&cursor=\(try #require(oldestPage.newerCursor))")
            #expect(try world.texts(forward) == (6...15).map { "m\($0)" })
            // oldest anchor
            let start = try await get("?limit=3&anchor=oldest")
            #expect(try world.texts(start) == ["m1", "m2", "m3"])
            #expect(try start.decode(WireMessagePage.self).foundOldest == true)
            // around a message: half before, the message and the rest after
            let around = try await get("?limit=4&anchor=\(ids[9])")
            #expect(try world.texts(around) == ["m8", "m9", "m10", "m11"])
            #expect(try around.decode(WireMessagePage.self).anchor == ids[9])
            // first unread: bob read up to m20
            let read = try await world.api.post(
                world.path(id, "/read"), token: world.bob.accessToken, json: ["messageId": ids[19]])
            #expect(try read.decode(WireReadMarker.self).unreadCount == 5)
            let unread = try await get("?limit=4&anchor=first_unread")
            #expect(try world.texts(unread) == ["m19", "m20", "m21", "m22"])
            #expect(try unread.decode(WireMessagePage.self).anchor == ids[20])
            // bad inputs
            #expect(try await get("?cursor=not-a-cursor").problem?.code == "invalid_cursor")
            #expect(try await get("?cursor=\(PageCursor.encode(["x": 1]))").problem?.code == "invalid_cursor")
            #expect(try await get("?anchor=latest").problem?.code == "invalid_anchor")
            #expect(try await get("?limit=101").problem?.code == "invalid_limit")
            #expect(try await get("?topicId=abc").problem?.code == "invalid_topic_id")
        }
    }

    @Test func readMarkersDriveUnreadCounts() async throws {
        try await MessagingWorld.run { world in
            let trip = try await world.group(world.ann, "Trip", with: [world.bob, world.cat])
            let withAnn = try await world.direct(world.bob, world.ann)
            var tripIDs: [Int] = []
            for n in 1...4 { tripIDs.append(try await world.message(world.ann, trip, "trip \(n)")) }
            try await world.message(world.ann, withAnn, "psst")
            try await world.message(world.bob, trip, "my own message is never unread")
            // unread per conversation
            let summary = try await world.api.get(MessagingPaths.unread, token: world.bob.accessToken)
            let unread = try summary.decode(WireUnread.self)
            #expect(unread.total == 5)
            let counts = unread.conversations.reduce(into: [String: Int]()) { $0[$1.conversationId] = $1.unreadCount }
            #expect(counts == [trip: 4, withAnn: 1])
            // marking read up to a message; markers never go back
            let read = try await world.api.post(
                world.path(trip, "/read"), token: world.bob.accessToken, json: ["messageId": tripIDs[2]])
            #expect(read.status == 200)
            #expect(try read.decode(WireReadMarker.self).unreadCount == 1)
            let back = try await world.api.post(
                world.path(trip, "/read"), token: world.bob.accessToken, json: ["messageId": tripIDs[0]])
            let marker = try back.decode(WireReadMarker.self)
            #expect(marker.unreadCount == 1)
            #expect(marker.lastReadId == tripIDs[2])
            #expect(marker.conversationId == trip)
            #expect(world.notices.live.last?.type == "conversation.read")
            #expect(world.notices.live.last?.recipients == [world.bob.id])
            // others' markers are their own
            let cats = try await world.api.get(MessagingPaths.unread, token: world.cat.accessToken)
            #expect(try cats.decode(WireUnread.self).total == 5)
            // bad inputs: a message of another conversation, non-members, malformed bodies
            #expect(
                try await world.api.post(
                    world.path(trip, "/read"), token: world.bob.accessToken, json: ["messageId": 999_999]
                )
                .status == 404)
            let psst = try #require(
                try world.messages(await world.api.get(world.path(withAnn, "/messages"), token: world.bob.accessToken))
                    .first?.id)
            #expect(
                try await world.api.post(
                    world.path(trip, "/read"), token: world.bob.accessToken, json: ["messageId": psst]
                )
                .status == 404)
            #expect(
                try await world.api.post(
                    world.path(trip, "/read"), token: world.dan.accessToken, json: ["messageId": tripIDs[0]]
                )
                .status == 404)
            #expect(
                try await world.api.post(world.path(trip, "/read"), token: world.bob.accessToken, raw: "{}").status
                    == 400)
        }
    }
}
