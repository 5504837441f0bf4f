import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Conversation facts for other services (the social service's friend picker); service credential only.
struct InternalMessagingController {
    let store: any MessagingStore

    func addRoutes(to router: RouterGroup<ServiceRequestContext>) {
        router.get(RouterPath(MessagingPaths.internalConversations + "/:conversation/members"), use: members)
    }

    struct MemberIDs: ResponseEncodable, Sendable {
        var ids: [String]
    }

    /// The member ids of a conversation, for a `viewer` who is one of them; for anyone else the conversation
    /// reads as not found, so a caller cannot learn who talks in a conversation it is not in.
    @Sendable func members(_ request: Request, context: ServiceRequestContext) async throws -> MemberIDs {
        guard let viewer = request.uri.queryParameters["viewer"].map(String.init), (1...64).contains(viewer.count)
        else { throw Problem.invalidField("viewer", "must be the id of the user asking.") }
        let conversation = try context.parameters.require("conversation")
        return MemberIDs(ids: try await store.memberIDs(of: conversation, viewer: viewer))
    }
}
