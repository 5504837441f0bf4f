import Foundation
import NIOHTTP1
import PlatformKit
import TestSupport
import Testing

/// Real resources of every kind a path names, owned by (or shared with) ann, for the hostile-input walk:
/// path parameter names map to these ids, so a new route whose parameters have known names needs no edit.
struct HostileFixture: Sendable {
    let ann: TestUser, bob: TestUser, cat: TestUser
    /// Path parameter values by name, or by `<segment before>/{name}` where one name means two things.
    let pathValues: [String: String]

    /// A user whose sessions the identity routes may end or whose password they may change: not ann.
    let zed: TestUser

    static func seed(_ stack: TestStack) async throws -> HostileFixture {
        let api = stack.gateway
        let ann = try await stack.register("ann")
        let bob = try await stack.register("bob")
        let cat = try await stack.register("cat")
        let dan = try await stack.register("dan")
        let zed = try await stack.register("zed")

        func create(
            _ path: String, _ json: String, as user: TestUser = ann, method: HTTPMethod = .POST,
            headers: [(String, String)] = []
        ) async throws -> APIResponse {
            let response = try await api.send(
                method, path, token: user.accessToken, body: Data(json.utf8),
                headers: [("Content-Type", "application/json")] + headers)
            #expect(response.status < 300, "fixture \(path): \(response.status) \(response.text.prefix(300))")
            return response
        }
        func id(_ response: APIResponse) throws -> String {
            try response.decode(CreatedID.self).id
        }

        // Social: ann is friends with bob and dan; cat asks ann to be friends (pending).
        for friend in [bob, dan] {
            let request = try await create(SocialPaths.friendRequests, #"{"userId": "\#(friend.id)"}"#)
            _ = try await api.post("\(SocialPaths.friendRequests)/\(id(request))/accept", token: friend.accessToken)
        }
        let pending = try await create(SocialPaths.friendRequests, #"{"userId": "\#(ann.id)"}"#, as: cat)

        // Household: ann's with bob in it and cat invited (one household per user, so none can invite ann).
        let household = try id(await create("/v1/households", #"{"name": "Flat", "timeZone": "Europe/Paris"}"#))
        let home = "/v1/households/\(household)"
        let invitation = try await create(home + "/invitations", #"{"username": "bob"}"#)
        _ = try await api.post("/v1/households/invitations/\(id(invitation))/accept", token: bob.accessToken)
        let invite = try id(await create(home + "/invitations", #"{"username": "cat"}"#))
        let chore = try id(
            await create(
                home + "/chores", #"{"name": "Dishes", "points": 2, "schedule": {"kind": "everyDays", "every": 1}}"#))
        let bill = try id(
            await create(
                home + "/bills",
                #"{"description": "Rent", "amount": 1000, "currency": "EUR", "split": {"kind": "equal"}}"#))
        let note = try id(await create(home + "/notes", #"{"text": "Hello"}"#))
        let item = try id(await create(home + "/groceries", #"{"name": "Milk", "communal": true}"#))
        let trip = try id(
            await create(
                home + "/trips", #"{"total": 300, "currency": "EUR", "items": [{"name": "Milk", "price": 300}]}"#))
        let recurring = try id(
            await create(
                home + "/recurring-bills",
                #"{"description": "Rent", "amount": 80000, "currency": "EUR", "split": {"kind": "equal"}, "#
                    + #""category": "rent", "schedule": {"kind": "everyDays", "every": 30}}"#))

        // Habits: one habit with an event today.
        let habit = try id(
            await create(
                "/v1/habits", #"{"title": "Run", "weekdays": ["mon","tue","wed","thu","fri","sat","sun"]}"#))
        let event = try id(await create("/v1/habits/\(habit)/events", #"{"comment": "done"}"#))
        let today = LocalDay(stack.clock.now, in: .gmt).description
        let pause = try id(await create("/v1/habits/\(habit)/pauses", #"{"from": "\#(today)", "to": "\#(today)"}"#))

        // Geo: a pin with a photo, a pack with a post and a comment.
        let pin = try id(await create(GeoPaths.pins, #"{"latitude": 48.85, "longitude": 2.34, "placeName": "Paris"}"#))
        let photo = try await api.send(
            .POST, "\(GeoPaths.pins)/\(pin)/photos", token: ann.accessToken, body: GeoPhotoTests.png,
            headers: [("Content-Type", "image/png")])
        #expect(photo.status == 201, "fixture photo: \(photo.text)")
        let position = [("Geo-Position", "48.85;2.34")]
        let pack = try id(
            await create(
                GeoPaths.packs,
                ##"{"name": "Crew", "latitude": 48.85, "longitude": 2.34, "radiusMeters": 1000, "tags": ["campus"], "color": "#FF8800"}"##,
                headers: position))
        let post = try id(
            await create(
                GeoPaths.packs + "/\(pack)/posts", #"{"title": "Hi", "body": "Anyone around?"}"#, headers: position))
        let comment = try id(
            await create("/v1/geo/posts/\(post)/comments", #"{"body": "Hello"}"#, headers: position))

        // Messaging: a group of ann and bob with a topic and a message.
        let conversation = try id(
            await create(
                MessagingPaths.groups,
                #"{"name": "Weekend", "product": "wegroup", "memberIds": ["\#(bob.id)", "\#(dan.id)"]}"#))
        let conversationPath = "\(MessagingPaths.conversations)/\(conversation)"
        let topic = try id(await create(conversationPath + "/topics", #"{"name": "Food"}"#))
        let message = try id(await create(conversationPath + "/messages", #"{"text": "Pizza?"}"#))
        let upload = try await api.send(
            .POST, conversationPath + "/images", token: ann.accessToken, body: GeoPhotoTests.png,
            headers: [("Content-Type", "image/png")])
        #expect(upload.status == 201, "fixture image: \(upload.text)")
        let image = try id(upload)
        _ = try await create(conversationPath + "/messages", #"{"imageIds": ["\#(image)"]}"#)

        // Notifications: a device and one notice in ann's inbox.
        let device = String(repeating: "ab", count: 32)
        _ = try await create("/v1/notifications/devices/\(device)", #"{"environment": "sandbox"}"#, method: .PUT)
        _ = try await stack.direct(.notifications).send(
            .POST, NotificationsPaths.internalNotifications,
            body: Data(
                #"{"recipientIds": ["\#(ann.id)"], "kind": "household.chore_completed", "text": "Done", "link": "/v1/households", "producer": "household", "idempotencyKey": "k1"}"#
                    .utf8),
            headers: [("Content-Type", "application/json"), (PlatformHeaders.internalToken, stack.internalToken)])
        let inbox = try await api.get(NotificationsPaths.notifications, token: ann.accessToken)
        let notification = try #require(try inbox.decode(WirePage<WireNotification>.self).items.first?.id)

        return try HostileFixture(
            ann: ann, bob: bob, cat: cat,
            pathValues: [
                "household": household, "invitation": invite, "member": bob.id, "chore": chore, "bill": bill,
                "note": note, "item": item, "trip": trip, "recurring": recurring, "habit": habit, "event": event,
                "pause": pause, "date": today,
                "pin": pin,
                "photo": id(photo), "pack": pack, "post": post, "comment": comment,
                // The gazetteer is not loaded in tests: any place id answers 404, which is all a hostile walk needs.
                "place": "1", "conversationId": conversation, "topicId": topic, "messageId": message,
                "imageId": image,
                "userId": bob.id, "user": bob.id, "users/{id}": bob.id, "sessions/{id}": zed.sessionID,
                "notification": notification, "token": device, "request": id(pending), "answer": "accept",
                "provider": "google", "kind": "posts", "emoji": "%F0%9F%91%8D",
            ],
            zed: zed)
    }
}

/// The id of whatever a fixture request created: a string, or a number (topics, messages).
private struct CreatedID: Decodable {
    var id: String

    private enum CodingKeys: String, CodingKey { case id }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let number = try? container.decode(Int64.self, forKey: .id) {
            id = String(number)
        } else {
            id = try container.decode(String.self, forKey: .id)
        }
    }
}
