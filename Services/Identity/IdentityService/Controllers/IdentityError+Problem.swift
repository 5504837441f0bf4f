import PlatformKit

/// The answer to each refusal of the identity service; codes and texts are part of the API.
extension IdentityError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidField(let field, let detail): Problem.invalidField(field, detail)
        case .weakPassword(let field, let detail):
            Problem(status: 400, code: "weak_password", title: "Weak password", detail: "\(field) \(detail)")
        case .notFound(let what): Problem.notFound(what)
        case .usernameTaken(let username): Problem.conflict("username_taken", "The username '\(username)' is taken.")
        case .emailTaken: Problem.conflict("email_taken", "An account with this e-mail address exists.")
        case .invalidCredentials:
            Problem.unauthorized("invalid_credentials", "The username, e-mail or password is not correct.")
        case .invalidCurrentPassword:
            Problem.forbidden("invalid_current_password", "The current password is not correct.")
        case .invalidRefreshToken:
            Problem.unauthorized("invalid_refresh_token", "The refresh token is not valid; sign in again.")
        case .refreshTokenReused:
            Problem.unauthorized(
                "refresh_token_reused", "This refresh token was already used; the session has been signed out.")
        case .sessionExpired:
            Problem.unauthorized("session_expired", "This session has expired; sign in again.")
        case .invalidNonce:
            Problem.unauthorized(
                "invalid_nonce", "nonce: not one this server issued, or already used or expired; ask for a new one.")
        case .invalidResetToken:
            Problem.badRequest("invalid_reset_token", "The reset link is invalid, used or expired; ask for a new one.")
        case .invalidVerificationToken:
            Problem.badRequest(
                "invalid_verification_token",
                "token: the verification link is invalid, used or expired; ask for a new one.")
        case .noEmail: Problem.conflict("no_email", "The account has no e-mail address to verify.")
        case .emailAlreadyVerified:
            Problem.conflict("email_already_verified", "The e-mail address is already verified.")
        case .unknownProvider(let name):
            Problem.badRequest("unknown_provider", "Sign-in with '\(name)' is not configured.")
        case .invalidIDToken(let detail): Problem.unauthorized("invalid_id_token", detail)
        case .providerUnavailable(let name): Problem.serviceUnavailable(name)
        case .accountExists:
            Problem.conflict(
                "account_exists",
                "An account with this e-mail exists; sign in with its password, then link this provider from "
                    + "your account settings.")
        case .identityLinkedElsewhere(let provider):
            Problem.conflict("identity_linked_elsewhere", "This \(provider) account is linked to another account.")
        case .lastSignInMethod:
            Problem.conflict(
                "last_sign_in_method",
                "This is the only way to sign in to the account; set a password or link another provider first.")
        }
    }
}
