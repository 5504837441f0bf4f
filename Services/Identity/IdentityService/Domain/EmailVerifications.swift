import Foundation

/// Makes e-mail verification tokens and their mails: random, stored only as a hash, single use, valid for
/// `lifetime` (24 h by default: long enough for a mail read the next day, short enough that an old mailbox
/// leak does not verify an address).
struct EmailVerifications: Sendable {
    let verificationURL: String
    let lifetime: TimeInterval

    /// A fresh token for `email` of `userID`: its record (hash only) and the mail carrying it. With `changesEmail`,
    /// using it makes `email` the account's address.
    func make(userID: String, email: String, now: Date, changesEmail: Bool = false)
        -> (token: EmailVerificationTokenRecord, mail: MailMessage)
    {
        let token = OpaqueToken.generate()
        let code = MailCode.generate()
        let tokenHash = OpaqueToken.hash(token)
        let record = EmailVerificationTokenRecord(
            tokenHash: tokenHash, userId: userID, email: email, createdAt: now,
            expiresAt: now.addingTimeInterval(lifetime), codeHash: MailCode.hash(code, tokenHash: tokenHash),
            changesEmail: changesEmail)
        let validHours = max(1, Int(lifetime / 3600))
        let mail =
            changesEmail
            ? IdentityMail.confirmNewEmail(
                to: email, token: token, code: code, verificationURL: verificationURL, validHours: validHours)
            : IdentityMail.verifyEmail(
                to: email, token: token, code: code, verificationURL: verificationURL, validHours: validHours)
        return (record, mail)
    }

    /// The address of `user` a new verification link goes to: one they have and have not proved yet.
    func addressToVerify(of user: UserRecord) throws -> String {
        guard let email = user.email else { throw IdentityError.noEmail }
        guard !user.emailVerified else { throw IdentityError.emailAlreadyVerified }
        return email
    }
}
