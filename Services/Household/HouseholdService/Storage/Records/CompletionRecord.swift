import Foundation

/// A row of `completions`: the history, kept when a chore is edited or deleted.
struct CompletionRecord: Codable, Sendable {
    var id: String
    var householdId: String
    var choreId: String
    var choreName: String
    var userId: String
    var points: Int
    var dueOn: String?
    var completedOn: String
    var completedAt: Date
    var note: String?
}
