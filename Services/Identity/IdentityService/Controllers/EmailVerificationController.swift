import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Proving an account's e-mail address: the link mailed at registration, and sending it again.
struct EmailVerificationController {
    let store: any IdentityStore
    let outbox: OutboxDelivery
    let clock: WallClock
    let verifications: EmailVerifications
    /// Resends per account (3 an hour): enough for a lost mail, too few to use us to flood a mailbox.
    let resends: RateLimiter
    let codeTries: MailCodeTries

    func addRoutes(public router: RouterGroup<ServiceRequestContext>, signedIn: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(IdentityPaths.verifyEmail), use: verify)
        signedIn.post(RouterPath(IdentityPaths.resendVerification), use: resend)
        signedIn.post(RouterPath(IdentityPaths.myEmail), use: changeEmail)
        router.get(RouterPath(IdentityPaths.verifyEmailPage), use: verifyPage)
        router.post(RouterPath(IdentityPaths.verifyEmailPage), use: verifyFromPage)
    }

    struct VerifyRequest: Decodable {
        /// From the link; or else `email` and the six-digit `code` from the same mail.
        var token: String?
        var email: String?
        var code: String?
    }

    /// Marks the address the token was mailed to verified (once; a used, expired or unknown token is a 400).
    @Sendable func verify(_ request: Request, context: ServiceRequestContext) async throws -> MyProfile {
        let input = try await request.decode(as: VerifyRequest.self, context: context)
        let invalid = IdentityError.invalidVerificationToken
        let now = clock.now
        let tokenHash = try await codeTries.tokenHash(
            token: input.token, email: input.email, code: input.code, invalid: invalid
        ) { email, code in
            try await store.verificationTokenHash(email: email, code: code, now: now)
        }
        guard let user = try await store.verifyEmail(tokenHash: tokenHash, now: clock.now) else { throw invalid }
        return MyProfile(user)
    }

    /// Mails a new verification link to the signed-in user's address.
    @Sendable func resend(_ request: Request, context: AuthenticatedContext) async throws
        -> EditedResponse<StatusMessage>
    {
        guard let user = try await store.user(id: context.user.userID) else {
            throw IdentityError.notFound("The user")
        }
        let email = try verifications.addressToVerify(of: user)
        try resends.enforce(user.id, "Verification mails were sent recently; try again later.")
        let (token, mail) = verifications.make(userID: user.id, email: email, now: clock.now)
        try await store.createVerificationToken(token, mail: mail)
        outbox.wakeUp()
        return EditedResponse(
            status: .accepted,
            response: StatusMessage(status: "verification_sent", message: "We sent a new link to \(email)."))
    }

    struct ChangeEmailRequest: Decodable {
        var email: String
    }

    /// Adds or changes the signed-in user's address: a link and code go to the new address, and the change happens
    /// only when one is used (the old address is then told). The answer is the same whether or not another account
    /// uses the address, so nobody learns who has an account; that account's owner is told instead.
    @Sendable func changeEmail(_ request: Request, context: AuthenticatedContext) async throws
        -> EditedResponse<StatusMessage>
    {
        let input = try await request.decode(as: ChangeEmailRequest.self, context: context)
        let email = try Validate.email(input.email)
        guard let user = try await store.user(id: context.user.userID) else {
            throw IdentityError.notFound("The user")
        }
        if user.email?.lowercased() == email, user.emailVerified { throw IdentityError.emailAlreadyVerified }
        try resends.enforce(user.id, "Verification mails were sent recently; try again later.")
        if try await store.emailBelongsToAnotherAccount(email, userID: user.id) {
            try await store.enqueue(IdentityMail.addressInUse(to: email), now: clock.now)
        } else {
            let (token, mail) = verifications.make(
                userID: user.id, email: email, now: clock.now, changesEmail: user.email?.lowercased() != email)
            try await store.createVerificationToken(token, mail: mail)
        }
        outbox.wakeUp()
        return EditedResponse(
            status: .accepted,
            response: StatusMessage(
                status: "verification_sent",
                message: "We sent a link to \(email); the address changes when you open it."))
    }

    /// The page the mailed link opens: a button that confirms (opening a link alone must not), or why the link no
    /// longer works.
    @Sendable func verifyPage(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let token = request.uri.queryParameters.get("token") ?? ""
        guard !token.isEmpty, token.count <= 256,
            try await store.verificationTokenIsUsable(tokenHash: OpaqueToken.hash(token), now: clock.now)
        else { return LinkPage.deadLink(what: "confirmation") }
        return LinkPage.verifyForm(token: token)
    }

    /// The button's post: verifies, and says which address is now confirmed.
    @Sendable func verifyFromPage(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        guard let form = try await LinkPage.form(request), let token = form["token"], !token.isEmpty,
            token.count <= 256,
            let user = try await store.verifyEmail(tokenHash: OpaqueToken.hash(token), now: clock.now)
        else { return LinkPage.deadLink(what: "confirmation") }
        return LinkPage.message(
            status: .ok, title: "Your e-mail address is confirmed",
            "\(user.email ?? "Your address") is confirmed. You can close this page and go back to the app.")
    }
}
