import Foundation

/// An operator's command to the `Identity` executable: `roles grant|revoke <user> <role>`, `roles list [<user>]`.
///
/// Roles are granted here and nowhere else (issue 41, "One secret does everything"): no HTTP route changes them, so
/// neither the service credential every service holds (`INTERNAL_TOKEN`) nor a metrics scraper's can grant `admin`.
/// The command opens identity's database itself, so it needs a shell where that database lives (`docker compose exec
/// identity /app/app roles ...`, `kubectl exec identity-0 -c identity -- /app/app roles ...`; with `DATABASE_URL`,
/// any shell holding that URL, such as an identity container's): a cluster or host operator's privilege, not a
/// network credential.
public enum RoleCommand: Sendable, Equatable {
    /// Adds `role` to the user named by a username, e-mail address or id.
    case grant(role: String, user: String)
    /// Removes `role` and ends the user's sessions, so no access token keeps carrying it.
    case revoke(role: String, user: String)
    /// The roles of one user, or every user who holds one.
    case list(user: String?)

    /// What a command line may say.
    public static let usage =
        "usage: Identity roles grant <username|e-mail|id> <role> | "
        + "roles revoke <username|e-mail|id> <role> | roles list [<username|e-mail|id>]"
    /// Most roles one user holds.
    static let maximumRoles = 8

    /// The command in `arguments` (those after the executable's name); nil when they are not a `roles` command (the
    /// service starts). A `roles` command that is malformed throws ``RoleCommandError/usage(_:)``.
    public init?(arguments: [String]) throws {
        guard arguments.first == "roles" else { return nil }
        switch Array(arguments.dropFirst()) {
        case let words where words.count == 3 && words[0] == "grant":
            self = .grant(role: try Self.checked(role: words[2]), user: words[1])
        case let words where words.count == 3 && words[0] == "revoke":
            self = .revoke(role: try Self.checked(role: words[2]), user: words[1])
        case let words where words == ["list"]:
            self = .list(user: nil)
        case let words where words.count == 2 && words[0] == "list":
            self = .list(user: words[1])
        default:
            throw RoleCommandError.usage(Self.usage)
        }
    }

    /// A role name: 1 to 32 lower-case letters and underscores (`admin`), as access tokens carry it.
    static func checked(role: String) throws -> String {
        guard (1...32).contains(role.count), role.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || $0 == "_" })
        else { throw RoleCommandError.usage("a role is 1 to 32 lower-case letters and underscores: '\(role)' is not") }
        return role
    }
}

/// Why a role command did nothing; its message is the one line the operator reads.
public enum RoleCommandError: Error, Equatable, CustomStringConvertible {
    case usage(String)
    case noSuchUser(String)
    case tooManyRoles(String)

    public var description: String {
        switch self {
        case .usage(let text): text
        case .noSuchUser(let user): "no user has the username, e-mail address or id '\(user)'"
        case .tooManyRoles(let user): "\(user) already holds \(RoleCommand.maximumRoles) roles"
        }
    }
}

/// What a role command did, in one line for the operator.
enum RoleCommandOutcome: Sendable, Equatable {
    /// A user as the operator reads it, `alice (id)`, with their roles.
    struct Holder: Sendable, Equatable {
        var user: String
        var roles: [String]
    }

    case granted(role: String, user: String, alreadyHeld: Bool)
    case revoked(role: String, user: String, endedSessions: Int, wasHeld: Bool)
    case listed([Holder])

    /// The line printed.
    var line: String {
        switch self {
        case .granted(let role, let user, true): "\(user) already holds \(role); nothing changed"
        case .granted(let role, let user, false):
            // Access tokens carry roles and live 15 minutes; the app's next refresh picks the new role up.
            "granted \(role) to \(user); it reaches the user's next access token (a refresh, within 15 minutes)"
        case .revoked(let role, let user, _, false): "\(user) does not hold \(role); nothing changed"
        case .revoked(let role, let user, let ended, true):
            // An access token already issued would carry the role for up to 15 minutes: its sessions end instead.
            "revoked \(role) from \(user); \(ended) session\(ended == 1 ? "" : "s") ended, so no token carries it"
        case .listed(let holders) where holders.isEmpty: "no user holds a role"
        case .listed(let holders):
            holders.map {
                $0.roles.isEmpty ? "\($0.user) holds no role" : "\($0.user): \($0.roles.joined(separator: ", "))"
            }
            .joined(separator: "; ")
        }
    }
}
