import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Keyword search over the caller's conversations.
struct MessageSearchController {
    let store: any MessagingStore
    let directory: any UserDirectory

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(MessagingPaths.search), use: search)
    }

    /// Keyword search over my conversations, best matches first, optionally in one conversation or topic, narrowed
    /// by the operators in the query (``SearchOperators``).
    @Sendable func search(_ request: Request, context: AuthenticatedContext) async throws -> Page<SearchResultView> {
        let query = request.uri.queryParameters
        let page = try request.pageRequest()
        let offset = try page.offset()
        guard offset <= SearchQuery.window else { throw PageCursor.invalid }
        var (text, filter) = try SearchOperators.parse(query["query"].map(String.init) ?? "")
        // `has:image` alone lists the newest messages with images (Slack's and Zulip's way); else words are needed.
        let terms = filter.hasImage && text.allSatisfy(\.isWhitespace) ? [] : try SearchQuery.terms(text)
        let topicID = try MessageQuery.topicID(query["topicId"])
        if let from = filter.from {
            filter.senderID = try await directory.user(username: from)?.id
        }
        // An unknown sender has written nothing.
        guard filter.from == nil || filter.senderID != nil else {
            return Page(fetched: [], limit: page.limit) { _ in OffsetCursor(offset: offset) }
        }
        let hits = try await store.search(
            terms, filter: filter, for: context.user.userID, conversation: query["conversationId"].map(String.init),
            topic: topicID, offset: offset, limit: page.limit + 1)
        var position = offset
        let results = hits.map { hit -> (SearchResultView, Int) in
            position += 1
            return (
                SearchResultView(message: MessageView(hit.message), snippet: SearchQuery.highlight(hit.snippet)),
                position
            )
        }
        let positions = Dictionary(results.map { ($0.0.message.id, $0.1) }) { a, _ in a }
        return Page(fetched: results.map(\.0), limit: page.limit) {
            OffsetCursor(offset: positions[$0.message.id] ?? 0)
        }
    }
}
