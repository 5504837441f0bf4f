import Foundation
import PlatformKit
import TestSupport
import Testing

/// Editing a pack, and the alpha's rights holding only while the alpha is a member.
@Suite struct GeoPackEditTests {
    func edit(_ world: GeoWorld, _ user: TestUser, _ pack: String, _ json: String) async throws -> APIResponse {
        try await world.api.send(
            .PATCH, GeoPaths.packs + "/\(pack)", token: user.accessToken, body: Data(json.utf8),
            headers: [("Content-Type", "application/json")] + GeoWorld.atCampus())
    }

    @Test func theAlphaOrAnAdminEditsThePackAndRadiusAndLockAreFixedOncePosted() async throws {
        try await GeoWorld.run { world in
            let pack = try await world.packID(world.ann)
            try await world.join(world.bob, pack)
            // before any post, everything may change
            let early = try await edit(world, world.ann, pack, #"{"radiusMeters": 2000, "locked": true}"#)
            #expect(early.status == 200, "\(early.text)")
            #expect(try early.decode(WirePack.self).radiusMeters == 2_000)
            _ = try await world.post(world.ann, pack, "first")
            let renamed = try await edit(
                world, world.ann, pack,
                ##"{"name": "Night owls", "tags": ["study", "Late"], "color": "#112233", "icon": "moon"}"##)
            #expect(renamed.status == 200, "\(renamed.text)")
            let face = try renamed.decode(WirePack.self)
            #expect(face.name == "Night owls")
            #expect(face.tags == ["study", "late"])
            #expect(face.color == "#112233")
            #expect(face.icon == "moon")
            #expect(face.radiusMeters == 2_000)
            // now the area is fixed, naming the field
            let radius = try await edit(world, world.ann, pack, #"{"radiusMeters": 500}"#)
            #expect(radius.status == 409)
            #expect(radius.problem?.code == "pack_has_posts")
            #expect(radius.problem?.errors?.map(\.field) == ["radiusMeters"])
            #expect(
                try await edit(world, world.ann, pack, #"{"locked": false}"#).problem?.errors?.first?.field == "locked")
            // the same values are no change
            #expect(try await edit(world, world.ann, pack, #"{"radiusMeters": 2000, "locked": true}"#).status == 200)
            // bad values name the field and change nothing
            #expect(try await edit(world, world.ann, pack, #"{"color": "red"}"#).problem?.code == "invalid_color")
            #expect(try await edit(world, world.ann, pack, #"{"tags": []}"#).status == 400)
            #expect(
                try await edit(world, world.ann, pack, #"{"radiusMeters": 10}"#).problem?.code
                    == "invalid_radius_meters")
            // a member who is not the alpha, or a stranger, may not
            #expect(try await edit(world, world.bob, pack, #"{"name": "Mine"}"#).problem?.code == "not_alpha")
            #expect(try await edit(world, world.cat, pack, #"{"name": "Mine"}"#).problem?.code == "not_alpha")
            // an admin may
            let admin = try await world.makeAdmin(world.dan)
            #expect(try await edit(world, admin, pack, #"{"name": "Moderated"}"#).status == 200)
            let shown = try await world.read(WirePack.self, world.bob, GeoPaths.packs + "/\(pack)")
            #expect(shown.name == "Moderated")
            #expect(shown.color == "#112233")
        }
    }

    @Test func anAlphaWhoLeftHasNoAlphaRights() async throws {
        try await GeoWorld.run { world in
            let pack = try await world.packID(world.ann)
            try await world.join(world.bob, pack)
            let bobs = try await world.post(world.bob, pack, "hello")
            let leave = try await world.api.send(
                .DELETE, GeoPaths.packs + "/\(pack)/membership", token: world.ann.accessToken,
                headers: GeoWorld.atCampus())
            #expect(leave.status == 204)
            #expect(try await world.read(WirePack.self, world.ann, GeoPaths.packs + "/\(pack)").isAlpha == false)
            // no closing, editing or moderating after leaving
            let close = try await world.api.send(
                .DELETE, GeoPaths.packs + "/\(pack)", token: world.ann.accessToken, headers: GeoWorld.atCampus())
            #expect(close.problem?.code == "not_alpha")
            #expect(try await edit(world, world.ann, pack, #"{"name": "Gone"}"#).problem?.code == "not_alpha")
            let moderate = try await world.api.send(
                .DELETE, GeoPaths.posts + "/\(bobs)", token: world.ann.accessToken, headers: GeoWorld.atCampus())
            #expect(moderate.status == 403)
            #expect(try await world.ids(world.bob, GeoPaths.packs + "/\(pack)/posts") == [bobs])
            // rejoining gives the rights back
            try await world.join(world.ann, pack)
            #expect(try await world.read(WirePack.self, world.ann, GeoPaths.packs + "/\(pack)").isAlpha)
            #expect(try await edit(world, world.ann, pack, #"{"name": "Back"}"#).status == 200)
        }
    }
}
