import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// A bill's image (a photo of the receipt or invoice): attach, fetch, remove.
struct BillImagesController {
    let store: any HouseholdStore
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let path = HouseholdPaths.households + "/:household/bills/:bill/image"
        router.put(RouterPath(path), use: uploadImage)
        router.get(RouterPath(path), use: image)
        router.delete(RouterPath(path), use: deleteImage)
    }

    /// Attaches an image (the raw JPEG, PNG or WebP body, at most 2 MiB), replacing any earlier one.
    @Sendable func uploadImage(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let image = try await HouseholdInput.image(request, maximumBytes: HouseholdInput.maximumPhotoBytes)
        try await store.setImage(
            of: try context.parameters.require("bill"), in: try context.parameters.require("household"),
            by: context.user.userID, image, now: clock.now)
        return .noContent
    }

    @Sendable func image(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard
            let image = try await store.image(
                of: try context.parameters.require("bill"), in: try context.parameters.require("household"),
                asMember: context.user.userID)
        else { throw HouseholdError.notFound("The image") }
        return image.response(to: request)
    }

    @Sendable func deleteImage(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        guard
            try await store.deleteImage(
                of: try context.parameters.require("bill"), in: try context.parameters.require("household"),
                by: context.user.userID)
        else { throw HouseholdError.notFound("The image") }
        return .noContent
    }
}
