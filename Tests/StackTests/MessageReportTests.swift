import Foundation
import MessagingService
import PlatformKit
import TestSupport
import Testing

/// Reporting chat messages through the gateway (issue 47): three reports in a group hide a message from everyone
/// but its sender, an admin sees the queue with the sender's account and keeps or removes, the sender is told of a
/// removal.
@Suite struct MessageReportTests {
    func report(_ world: MessagingWorld, _ user: TestUser, _ group: String, _ message: Int) async throws
        -> APIResponse
    {
        try await world.api.post(
            world.path(group, "/messages/\(message)/reports"), token: user.accessToken,
            json: ["reason": "harassment", "note": "not ok"])
    }

    @Test func threeReportsHideAMessageUntilAnAdminKeepsOrRemovesIt() async throws {
        try await MessagingWorld.run { world in
            // given: bob writes twice in ann's group; ann, cat and dan report both
            let group = try await world.group(world.ann, with: [world.bob, world.cat, world.dan])
            let rude = try await world.message(world.bob, group, "you are all idiots")
            let harsh = try await world.message(world.bob, group, "harsh but fair words")
            try await world.message(world.cat, group, "calm down")
            for reporter in [world.ann, world.cat, world.dan] {
                for message in [rude, harsh] {
                    let filed = try await report(world, reporter, group, message)
                    #expect(filed.status == 201, "\(filed.text)")
                }
                if reporter.id == world.ann.id {
                    // one open report per member: again answers the first
                    #expect(try await report(world, world.ann, group, rude).status == 200)
                }
            }
            #expect(try await report(world, world.bob, group, rude).status == 403)
            // a hidden message cannot be reported by those it is hidden from
            #expect(try await report(world, world.ann, group, rude).status == 404)

            // then: gone for the others' pages and search, marked for bob
            let page = world.path(group, "/messages")
            #expect(
                try world.texts(try await world.api.get(page, token: world.ann.accessToken)) == ["calm down"])
            let search = try await world.api.get(MessagingPaths.search + "?query=idiots", token: world.dan.accessToken)
            #expect(try world.hits(search).isEmpty)
            let own = try await world.api.get(page, token: world.bob.accessToken)
            #expect(try world.messages(own).map(\.id) == [rude, harsh, try world.messages(own)[2].id])
            #expect(own.text.contains(#""hidden":true"#))

            // a member is refused the queue
            let refused = try await world.api.get(MessagingPaths.prefix + "/reports", token: world.cat.accessToken)
            #expect(refused.status == 403)
            #expect(refused.text.contains("admin_only"))

            // an admin sees the sender's account, keeps one and removes the other
            let admin = try await world.stack.makeAdmin(world.eve)
            let queue = try await world.api.get(MessagingPaths.prefix + "/reports", token: admin.accessToken)
            #expect(queue.status == 200, "\(queue.text)")
            let items = try queue.decode(WirePage<QueuedMessage>.self).items
            #expect(items.map(\.message.id) == [rude, harsh])
            #expect(items.map(\.message.senderId) == [world.bob.id, world.bob.id])
            #expect(items.map(\.reportCount) == [3, 3])
            let kept = try await world.api.post(
                MessagingPaths.prefix + "/reports/\(harsh)/keep", token: admin.accessToken)
            #expect(kept.status == 200, "\(kept.text)")
            let removed = try await world.api.post(
                MessagingPaths.prefix + "/reports/\(rude)/remove", token: admin.accessToken)
            #expect(removed.status == 200, "\(removed.text)")
            #expect(
                try world.texts(try await world.api.get(page, token: world.ann.accessToken))
                    == ["harsh but fair words", "calm down"])
            #expect(
                try world.messages(try await world.api.get(page, token: world.bob.accessToken)).map(\.id).contains(
                    rude) == false)
            let told = world.notices.all.filter { $0.kind == "messaging.message_removed" }
            #expect(told.map(\.recipients) == [[world.bob.id]])
        }
    }
}

/// An item of the admins' message report queue, as much as this test reads.
struct QueuedMessage: Decodable, Sendable {
    struct Message: Decodable, Sendable {
        var id: Int
        var senderId: String
    }

    var message: Message
    var reportCount: Int
}
