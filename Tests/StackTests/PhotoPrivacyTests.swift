import Foundation
import PlatformKit
import TestSupport
import Testing

/// A photo taken on a phone carries where it was taken and on what. Every route that stores an image keeps only
/// the pixels (and the orientation), so what anyone downloads tells neither; and a file that only starts like an
/// image is refused, naming the field.
@Suite struct PhotoPrivacyTests {
    /// The product services; ann and bob are friends, bob follows ann, and they share a household (made on first
    /// use).
    struct World {
        let stack: TestStack
        let ann: TestUser, bob: TestUser
        var api: APIClient { stack.gateway }

        static func run(_ body: (World) async throws -> Void) async throws {
            try await ProductStack.run { stack in
                let world = World(
                    stack: stack, ann: try await stack.register("ann"), bob: try await stack.register("bob"))
                let api = stack.gateway
                let request = try await api.post(
                    SocialPaths.friendRequests, token: world.ann.accessToken, json: ["userId": world.bob.id])
                let requestID = try request.decode(WireCreated.self).id
                #expect(
                    try await api.post(
                        "\(SocialPaths.friendRequests)/\(requestID)/accept", token: world.bob.accessToken
                    ).status == 200)
                #expect(
                    try await api.post(
                        SocialPaths.follows, token: world.bob.accessToken, json: ["username": world.ann.username]
                    ).status == 201)
                #expect(
                    try await api.post(
                        "\(SocialPaths.followRequests)/\(world.bob.id)/approve", token: world.ann.accessToken
                    ).status == 204)
                try await body(world)
            }
        }
    }

    /// One way to store an image and read it back as someone else who may see it.
    struct Upload: Sendable, CustomTestStringConvertible {
        var name: String
        /// Stores `image` as ann; answers the upload's response and the URL bob reads it from.
        var store: @Sendable (World, Data) async throws -> (APIResponse, String?)
        /// The field a malformed image is named by.
        var field = "body"
        var testDescription: String { name }
    }

    static let uploads: [Upload] = [
        Upload(name: "avatar") { world, image in
            let response = try await world.api.put(
                IdentityPaths.me + "/avatar", token: world.ann.accessToken, body: image)
            return (response, response.status == 200 ? try response.decode(WireMyProfile.self).avatarUrl : nil)
        },
        Upload(name: "pin photo") { world, image in
            let pin = try await world.api.post(
                GeoPaths.pins, token: world.ann.accessToken,
                json: GeoWorld.NewPin(latitude: 48.8566, longitude: 2.3522, placeName: "Home"))
            let response = try await world.api.send(
                .POST, GeoPaths.pins + "/\(try pin.decode(WirePin.self).id)/photos", token: world.ann.accessToken,
                body: image)
            return (response, response.status == 201 ? try response.decode(WirePinPhoto.self).url : nil)
        },
        Upload(
            name: "habit event photo",
            store: { world, image in
                let habit = try await world.api.post(
                    HabitsPaths.habits, token: world.ann.accessToken,
                    json: HabitBody(title: "Walk", reason: "air", weekdays: HabitBody.everyDay))
                let response = try await world.api.post(
                    "\(HabitsPaths.habits)/\(try habit.decode(WireHabit.self).id)/events", token: world.ann.accessToken,
                    json: EventBody(photo: image.base64EncodedString()))
                return (response, response.status == 201 ? try response.decode(WireHabitEvent.self).photoUrl : nil)
            }, field: "photo"),
        Upload(name: "note photo") { world, image in
            let home = try await household(world)
            let note = try await world.api.post(
                "\(home)/notes", token: world.ann.accessToken, json: NoteBody(text: "Look"))
            let path = "\(home)/notes/\(try note.decode(WireNote.self).id)/photo"
            let response = try await world.api.put(path, token: world.ann.accessToken, body: image)
            return (response, path)
        },
        Upload(name: "bill image") { world, image in
            let home = try await household(world)
            let bill = try await world.api.post(
                "\(home)/bills", token: world.ann.accessToken,
                json: HouseholdMoneyTests.Bill(amount: 4_250, split: .init(kind: "equal")))
            let path = "\(home)/bills/\(try bill.decode(WireBill.self).id)/image"
            let response = try await world.api.put(path, token: world.ann.accessToken, body: image)
            return (response, path)
        },
        Upload(name: "trip receipt") { world, image in
            let home = try await household(world)
            _ = try await world.api.post(
                "\(home)/groceries", token: world.ann.accessToken, json: HouseholdGroceryTests.Item(name: "Apples"))
            let trip = try await world.api.post(
                "\(home)/trips", token: world.ann.accessToken,
                json: HouseholdGroceryTests.Trip(total: 450, items: [.init(name: "apple")]))
            let path = "\(home)/trips/\(try trip.decode(WireTrip.self).id)/receipt"
            let response = try await world.api.put(path, token: world.ann.accessToken, body: image)
            return (response, path)
        },
    ]

    /// ann's household with bob (created on first use; a user is in one household at most).
    static func household(_ world: World) async throws -> String {
        let mine = try await world.api.get(HouseholdPaths.households + "/mine", token: world.ann.accessToken)
        if mine.status == 200 { return "\(HouseholdPaths.households)/\(try mine.decode(WireHousehold.self).id)" }
        let created = try await world.api.post(
            HouseholdPaths.households, token: world.ann.accessToken, json: ["name": "Flat 4", "timeZone": "UTC"])
        let id = try created.decode(WireHousehold.self).id
        let invitation = try await world.api.post(
            "\(HouseholdPaths.households)/\(id)/invitations", token: world.ann.accessToken,
            json: ["username": world.bob.username])
        let accepted = try await world.api.post(
            "\(HouseholdPaths.households)/invitations/\(try invitation.decode(WireInvitation.self).id)/accept",
            token: world.bob.accessToken)
        #expect(accepted.status == 200)
        return "\(HouseholdPaths.households)/\(id)"
    }

    @Test(arguments: uploads)
    func aPhotosPlaceAndCameraNeverReachItsViewers(upload: Upload) async throws {
        let photo = try await ImageJudge.photoWithLocation("jpeg")
        // the photo really carries a place and a camera before it is uploaded
        let original = try await ImageJudge.inspect(photo)
        #expect(original.gpsTags == [1, 2, 3, 4] && original.xmp && original.comment && original.carriesPlaceOrDevice)
        try await World.run { world in
            // a file that only starts like an image is refused, naming the field, and nothing is stored
            let junk = Data(TestImages.pngSignature + Array("not really a picture".utf8))
            let (refused, _) = try await upload.store(world, junk)
            #expect(refused.status == 400, "\(refused.text)")
            #expect(refused.problem?.code == "invalid_image")
            #expect(refused.problem?.errors?.map(\.field) == [upload.field])
            // a real photo is stored without what would tell where it was taken or on what
            let (stored, url) = try await upload.store(world, photo)
            #expect((200...204).contains(stored.status), "\(stored.text)")
            let downloaded = try await world.api.get(try #require(url), token: world.bob.accessToken)
            #expect(downloaded.status == 200)
            #expect(downloaded.headers.first(name: "content-type") == "image/jpeg")
            let served = try await ImageJudge.inspect(downloaded.body)
            #expect(served.format == "JPEG" && served.width == 64 && served.height == 48)
            #expect(!served.carriesPlaceOrDevice, "\(served)")
            #expect(served.gpsTags.isEmpty && served.exifTags == [274])
            // the one field kept: a portrait photo still shows upright
            #expect(served.orientation == 6)
        }
    }

    @Test(arguments: ["png", "webp"])
    func pngAndWebPLoseTheirMetadataToo(format: String) async throws {
        let photo = try await ImageJudge.photoWithLocation(format)
        #expect(try await ImageJudge.inspect(photo).carriesPlaceOrDevice)
        try await World.run { world in
            let (stored, url) = try await Self.uploads[1].store(world, photo)
            #expect(stored.status == 201, "\(stored.text)")
            let downloaded = try await world.api.get(try #require(url), token: world.bob.accessToken)
            #expect(downloaded.headers.first(name: "content-type") == "image/\(format)")
            let served = try await ImageJudge.inspect(downloaded.body)
            #expect(served.format == format.uppercased() && served.width == 64 && served.height == 48)
            #expect(!served.carriesPlaceOrDevice, "\(served)")
            // PNG keeps the orientation in a minimal eXIf, as JPEG does; WebP decoders ignore it, so none is kept
            #expect(served.orientation == (format == "png" ? 6 : nil))
        }
    }
}
