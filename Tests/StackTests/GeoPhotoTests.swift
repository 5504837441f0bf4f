import Foundation
import NIOHTTP1
import PlatformKit
import TestSupport
import Testing

/// Pictures of pins through the gateway: content-checked, size-limited, served with an ETag.
@Suite struct GeoPhotoTests {
    static let png = TestImages.png(size: 136)
    static let jpeg = TestImages.jpeg(size: 120)

    @Test func photosAreCheckedStoredServedWithAnETagAndDeletedByTheOwner() async throws {
        try await GeoWorld.run { world in
            // given
            let pin = try await world.pin(world.ann, 64.14, -21.94, "Reykjavík")
            let photos = GeoPaths.pins + "/\(pin)/photos"
            // fake and oversized images are refused
            let gif = try await world.api.send(
                .POST, photos, token: world.ann.accessToken, body: Data("GIF89a...".utf8))
            #expect(gif.status == 415)
            let renamed = try await world.api.send(
                .POST, photos, token: world.ann.accessToken, body: Data("not a png".utf8),
                headers: [("Content-Type", "image/png")])
            #expect(renamed.status == 415)
            let huge = try await world.api.send(
                .POST, photos, token: world.ann.accessToken, body: Self.png + Data(count: 4 << 20))
            #expect(huge.status == 413)
            let empty = try await world.api.send(.POST, photos, token: world.ann.accessToken, body: Data())
            #expect(empty.status == 400)
            // only the owner uploads
            let foreign = try await world.api.send(.POST, photos, token: world.bob.accessToken, body: Self.png)
            #expect(foreign.status == 404)
            // when
            let uploaded = try await world.api.send(.POST, photos, token: world.ann.accessToken, body: Self.png)
            #expect(uploaded.status == 201)
            let stored = try uploaded.decode(WirePinPhoto.self)
            #expect(stored.mediaType == "image/png")
            let url = stored.url
            _ = try await world.api.send(.POST, photos, token: world.ann.accessToken, body: Self.jpeg)
            // then: friends and strangers see them, with an ETag
            let list = try await world.api.get(photos, token: world.cat.accessToken)
            #expect(try list.decode(WireItems<WirePinPhoto>.self).items.count == 2)
            let photo = try await world.api.get(url, token: world.bob.accessToken)
            #expect(photo.status == 200)
            #expect(photo.body == Self.png)
            #expect(photo.headers.first(name: "content-type") == "image/png")
            let etag = try #require(photo.headers.first(name: "etag"))
            let again = try await world.api.get(url, token: world.bob.accessToken, headers: [("If-None-Match", etag)])
            #expect(again.status == 304)
            #expect(
                try await world.api.get(GeoPaths.pins + "/\(pin)", token: world.bob.accessToken).decode(WirePin.self)
                    .photoCount == 2)
            // a blocked user sees nothing
            try await world.block(world.ann, world.dan)
            #expect(try await world.api.get(url, token: world.dan.accessToken).status == 404)
            #expect(try await world.api.get(photos, token: world.dan.accessToken).status == 404)
            // only the owner deletes
            #expect(try await world.api.delete(url, token: world.bob.accessToken).status == 404)
            #expect(try await world.api.delete(url, token: world.ann.accessToken).status == 204)
            #expect(try await world.api.get(url, token: world.ann.accessToken).status == 404)
            // deleting the pin deletes its photos
            #expect(try await world.api.delete(GeoPaths.pins + "/\(pin)", token: world.ann.accessToken).status == 204)
            #expect(try await world.api.get(photos, token: world.ann.accessToken).status == 404)
        }
    }
}
