/// Why the notifications service refused a request; `Controllers/NotificationsError+Problem.swift` turns each
/// into its answer.
enum NotificationsError: Error, Equatable {
    /// A field is not acceptable: `field` as the client wrote it, `detail` what it must be.
    case invalidField(String, String)
    /// Nothing of the caller's under that name ("notification", "device").
    case notFound(String)
}
