import Foundation

/// A row of `conversations`.
struct ConversationRecord: Codable, Sendable {
    var id: String
    var kind: String
    var name: String?
    var directKey: String?
    var createdBy: String
    var createdAt: Date
    var lastMessageId: Int64?
    var activity: Int64
    /// `wegroup` or `getaway`: the app the conversation was started in.
    var product: String = Product.legacy.rawValue

    var conversationKind: ConversationKind { ConversationKind(rawValue: kind) ?? .group }

    /// The key that makes a direct conversation unique per pair and product, whoever opens it.
    static func directKey(_ a: String, _ b: String, product: Product) -> String {
        "\(product.rawValue) " + (a < b ? "\(a) \(b)" : "\(b) \(a)")
    }
}
