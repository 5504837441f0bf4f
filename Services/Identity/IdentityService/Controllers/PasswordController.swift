import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Changing a password, and recovering an account by e-mail (OWASP Forgot Password cheat sheet).
struct PasswordController {
    let store: any IdentityStore
    let hasher: PasswordHasher
    let limits: RateLimits
    let outbox: OutboxDelivery
    let clock: WallClock
    let endedSessions: any EndedSessionSink
    let resetURL: String
    let resetTokenLifetime: TimeInterval
    let codeTries: MailCodeTries

    func addRoutes(public router: RouterGroup<ServiceRequestContext>, signedIn: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(IdentityPaths.forgotPassword), use: forgot)
        router.post(RouterPath(IdentityPaths.resetPassword), use: reset)
        router.get(RouterPath(IdentityPaths.resetPasswordPage), use: resetPage)
        router.post(RouterPath(IdentityPaths.resetPasswordPage), use: resetFromPage)
        signedIn.post(RouterPath(IdentityPaths.changePassword), use: change)
    }

    struct ChangeRequest: Decodable {
        /// Required when the account has a password; accounts made through Google or Facebook set a first one.
        var currentPassword: String?
        var newPassword: String
    }

    /// Sets a new password and signs out every other device; the user is told by e-mail.
    @Sendable func change(_ request: Request, context: AuthenticatedContext) async throws -> StatusMessage {
        let input = try await request.decode(as: ChangeRequest.self, context: context)
        guard let user = try await store.user(id: context.user.userID) else {
            throw IdentityError.notFound("The user")
        }
        if let hash = user.passwordHash {
            guard let current = input.currentPassword, current.utf8.count <= 1024,
                try await hasher.verify(current, hash: hash)
            else {
                throw IdentityError.invalidCurrentPassword
            }
        }
        try PasswordPolicy.check(input.newPassword, username: user.username, email: user.email, field: "newPassword")
        let hash = try await hasher.hash(input.newPassword)
        let revoked = try await store.changePassword(
            userID: user.id, hash: hash, keepingSession: context.user.sessionID,
            notice: user.email.map(IdentityMail.passwordChanged(to:)), now: clock.now)
        outbox.wakeUp()
        await endedSessions.sessionsEnded(userID: user.id, sessionIDs: revoked)
        return StatusMessage(
            status: "password_changed", message: "Your password was changed; other devices were signed out.")
    }

    struct ForgotRequest: Decodable {
        /// A username or an e-mail address.
        var identifier: String
    }

    /// Always the same answer, whether or not an account matches, so the route reveals nothing.
    @Sendable func forgot(_ request: Request, context: ServiceRequestContext) async throws
        -> EditedResponse<StatusMessage>
    {
        let input = try await request.decode(as: ForgotRequest.self, context: context)
        let identifier = input.identifier.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !identifier.isEmpty, identifier.count <= 254 else {
            throw Problem.invalidField("identifier", "must be a username or an e-mail address.")
        }
        try limits.resetsByAddress.enforce(context.clientKey(request))
        let answer = EditedResponse(
            status: .accepted,
            response: StatusMessage(
                status: "reset_requested",
                message: "If an account matches, we have sent it an e-mail with a link to reset the password."))
        // The per-account limit applies whether or not the account exists, and silently: a 429 here would
        // tell apart accounts that were asked for before.
        guard limits.resetsByAccount.acquire(identifier) == nil,
            let user = try await store.user(identifier: identifier), let email = user.email
        else { return answer }
        let token = OpaqueToken.generate()
        let code = MailCode.generate()
        let tokenHash = OpaqueToken.hash(token)
        let now = clock.now
        try await store.createResetToken(
            PasswordResetTokenRecord(
                tokenHash: tokenHash, userId: user.id, createdAt: now,
                expiresAt: now.addingTimeInterval(resetTokenLifetime),
                codeHash: MailCode.hash(code, tokenHash: tokenHash)),
            mail: IdentityMail.passwordReset(
                to: email, token: token, code: code, resetURL: resetURL, validMinutes: Int(resetTokenLifetime / 60)))
        outbox.wakeUp()
        return answer
    }

    struct ResetRequest: Decodable {
        /// From the link; or else `email` and the six-digit `code` from the same mail.
        var token: String?
        var email: String?
        var code: String?
        var newPassword: String
    }

    /// Sets the password a reset token allows; every session is signed out and no new one is started
    /// (the user signs in again with the new password).
    @Sendable func reset(_ request: Request, context: ServiceRequestContext) async throws -> StatusMessage {
        let input = try await request.decode(as: ResetRequest.self, context: context)
        let invalid = IdentityError.invalidResetToken
        let now = clock.now
        let tokenHash = try await codeTries.tokenHash(
            token: input.token, email: input.email, code: input.code, invalid: invalid
        ) { email, code in
            try await store.resetTokenHash(email: email, code: code, now: now)
        }
        try await performReset(tokenHash: tokenHash, newPassword: input.newPassword)
        return StatusMessage(
            status: "password_reset", message: "Your password was reset; sign in with the new password.")
    }

    /// Uses the reset token: checks the new password against the policy (a weak one does not spend the token), sets
    /// it, signs out every session and mails the notice.
    private func performReset(tokenHash: String, newPassword: String) async throws {
        let invalid = IdentityError.invalidResetToken
        guard let user = try await store.userForResetToken(tokenHash: tokenHash, now: clock.now) else {
            throw invalid
        }
        try PasswordPolicy.check(newPassword, username: user.username, email: user.email, field: "newPassword")
        let hash = try await hasher.hash(newPassword)
        guard
            let revoked = try await store.resetPassword(
                tokenHash: tokenHash, userID: user.id, passwordHash: hash,
                notice: user.email.map(IdentityMail.passwordChanged(to:)), now: clock.now)
        else { throw invalid }
        outbox.wakeUp()
        await endedSessions.sessionsEnded(userID: user.id, sessionIDs: revoked)
    }

    /// The page the mailed link opens: the new-password form, or why the link no longer works.
    @Sendable func resetPage(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let token = request.uri.queryParameters.get("token") ?? ""
        guard !token.isEmpty, token.count <= 256,
            try await store.userForResetToken(tokenHash: OpaqueToken.hash(token), now: clock.now) != nil
        else { return LinkPage.deadLink(what: "password reset") }
        return LinkPage.resetForm(token: token)
    }

    /// The form's post: the same rules as the API; the answer is a page saying what happened.
    @Sendable func resetFromPage(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        guard let form = try await LinkPage.form(request), let token = form["token"], !token.isEmpty,
            token.count <= 256
        else { return LinkPage.deadLink(what: "password reset") }
        let password = form["newPassword"] ?? ""
        guard password == form["confirmPassword"] else {
            return LinkPage.resetForm(token: token, error: "The two passwords are not the same.")
        }
        do {
            try await performReset(tokenHash: OpaqueToken.hash(token), newPassword: password)
        } catch IdentityError.weakPassword(_, let detail) {
            return LinkPage.resetForm(token: token, error: detail)
        } catch IdentityError.invalidResetToken {
            return LinkPage.deadLink(what: "password reset")
        }
        return LinkPage.message(
            status: .ok, title: "Your password was changed",
            "Your new password is set and every device was signed out. Sign in with it in the app.")
    }
}
