import Foundation
import PlatformKit
import TestSupport
import Testing

/// Identity, household and messaging on PostgreSQL with two replicas each behind the gateway (issue 42): whatever
/// one replica writes or ends, the other serves at once, and a replica going away fails no request.
@Suite struct ReplicatedStackTests {
    static let replicated: [ServiceName: Int] = [.identity: 2, .household: 2, .messaging: 2]

    func replicas(_ stack: TestStack, _ service: ServiceName) throws -> [APIClient] {
        let urls = try #require(stack.replicaURLs[service])
        #expect(urls.count == 2)
        return urls.map { APIClient(baseURL: $0, contract: .platform) }
    }

    struct Bill: Encodable, Sendable {
        var description = "Groceries"
        var amount: Int
        var currency = "EUR"
        var split = ["kind": "equal"]
    }

    @Test func twoReplicasOfEachServeOneDatabaseAsOne() async throws {
        try await ProductStack.run(postgres: [.identity, .household, .messaging], replicas: Self.replicated) { stack in
            let ann = try await stack.register("ann")
            let bob = try await stack.register("bob")
            let households = try replicas(stack, .household)

            // Bills through the gateway land on either replica; both list every one.
            let created = try await stack.gateway.post(
                HouseholdPaths.households, token: ann.accessToken, json: ["name": "Flat 4", "timeZone": "UTC"])
            #expect(created.status == 201, "\(created.text)")
            let household = try created.decode(WireHousehold.self).id
            let bills = "\(HouseholdPaths.households)/\(household)/bills"
            for number in 1...6 {
                let bill = try await stack.gateway.send(
                    .POST, bills, token: ann.accessToken, json: Bill(amount: 100 * number),
                    headers: [("Idempotency-Key", "bill-\(number)")])
                #expect(bill.status == 201, "\(bill.text)")
            }
            // One key sent to each replica: one bill, the same answer from both.
            let first = try await households[0].send(
                .POST, bills, token: ann.accessToken, json: Bill(amount: 700), headers: [("Idempotency-Key", "bill-7")])
            let again = try await households[1].send(
                .POST, bills, token: ann.accessToken, json: Bill(amount: 700), headers: [("Idempotency-Key", "bill-7")])
            #expect(first.status == 201 && again.status == 200, "\(first.text) / \(again.text)")
            #expect(try first.decode(WireBill.self).id == again.decode(WireBill.self).id)
            for replica in households {
                let list = try await replica.get(bills + "?limit=50", token: ann.accessToken)
                #expect(try list.decode(WirePage<WireBill>.self).items.count == 7, "\(replica.baseURL)")
            }

            // A page one messaging replica served (and keeps) is not served again after a post on the other.
            let messaging = try replicas(stack, .messaging)
            let request = try await stack.gateway.post(
                SocialPaths.friendRequests, token: ann.accessToken, json: ["userId": bob.id])
            let friendRequest = try request.decode(WireFriendRequest.self).id
            #expect(
                try await stack.gateway.post(
                    "\(SocialPaths.friendRequests)/\(friendRequest)/accept", token: bob.accessToken
                ).status == 200)
            let direct = try await stack.gateway.post(
                MessagingPaths.direct, token: ann.accessToken, json: ["userId": bob.id, "product": "wegroup"])
            #expect([200, 201].contains(direct.status), "\(direct.text)")
            let conversation = try direct.decode(WireConversation.self).id
            let messages = "\(MessagingPaths.conversations)/\(conversation)/messages"
            for text in ["one", "two", "three"] {
                let posted = try await stack.gateway.post(messages, token: ann.accessToken, json: ["text": text])
                #expect(posted.status == 201, "\(posted.text)")
            }
            let before = try await messaging[0].get(messages, token: bob.accessToken)
            #expect(
                try before.decode(WirePage<WireMessage>.self).items.map(\.text).sorted() == ["one", "three", "two"])
            let posted = try await messaging[1].post(messages, token: bob.accessToken, json: ["text": "four"])
            #expect(posted.status == 201, "\(posted.text)")
            for replica in messaging {
                let page = try await replica.get(messages, token: ann.accessToken)
                let texts = try page.decode(WirePage<WireMessage>.self).items.map(\.text)
                #expect(texts.count == 4 && texts.contains("four"), "\(replica.baseURL): \(texts)")
            }

            // A session ended on one identity replica is refused by the other and by the gateway.
            let identities = try replicas(stack, .identity)
            #expect(try await identities[0].get(IdentityPaths.me, token: bob.accessToken).status == 200)
            #expect(try await identities[1].get(IdentityPaths.me, token: bob.accessToken).status == 200)
            #expect(try await identities[0].post(IdentityPaths.logout, token: bob.accessToken).status == 204)
            #expect(
                try await eventually(within: .seconds(30)) {
                    try await identities[1].get(IdentityPaths.me, token: bob.accessToken).status == 401
                })
            #expect(
                try await eventually(within: .seconds(30)) {
                    try await stack.gateway.get(IdentityPaths.me, token: bob.accessToken).status == 401
                })

            // One replica of each goes away: every request through the gateway is still answered.
            await stack.stop("household")
            await stack.stop("messaging")
            await stack.stop("identity")
            for number in 8...12 {
                let bill = try await stack.gateway.send(
                    .POST, bills, token: ann.accessToken, json: Bill(amount: 100 * number),
                    headers: [("Idempotency-Key", "bill-\(number)")])
                #expect(bill.status == 201, "\(bill.text)")
                let page = try await stack.gateway.get(messages, token: ann.accessToken)
                #expect(page.status == 200, "\(page.text)")
                #expect(try await stack.gateway.get(IdentityPaths.me, token: ann.accessToken).status == 200)
            }
        }
    }
}
