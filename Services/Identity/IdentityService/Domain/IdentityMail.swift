import Foundation

/// One plain-text e-mail.
struct MailMessage: Sendable, Equatable {
    var recipient: String
    var subject: String
    var body: String
}

/// The e-mails the identity service sends. Links and tokens appear only here, never in logs.
enum IdentityMail {
    static func passwordReset(to email: String, token: String, code: String, resetURL: String, validMinutes: Int)
        -> MailMessage
    {
        let separator = resetURL.contains("?") ? "&" : "?"
        return MailMessage(
            recipient: email, subject: "Reset your password",
            body: """
                Someone asked to reset the password of your account. If it was you, open this link within \(validMinutes) minutes:

                \(resetURL)\(separator)token=\(token)

                Or enter this code in the app: \(code)

                If it was not you, ignore this e-mail; your password stays as it is.
                """)
    }

    static func verifyEmail(to email: String, token: String, code: String, verificationURL: String, validHours: Int)
        -> MailMessage
    {
        let separator = verificationURL.contains("?") ? "&" : "?"
        return MailMessage(
            recipient: email, subject: "Confirm your e-mail address",
            body: """
                Please confirm that this address belongs to your account by opening this link within \(validHours) hours:

                \(verificationURL)\(separator)token=\(token)

                Or enter this code in the app: \(code)

                If you did not create an account, ignore this e-mail.
                """)
    }

    static func passwordChanged(to email: String) -> MailMessage {
        MailMessage(
            recipient: email, subject: "Your password was changed",
            body: """
                The password of your account was just changed, and every other device was signed out.

                If you did not do this, reset your password now and contact support.
                """)
    }

    static func confirmNewEmail(to email: String, token: String, code: String, verificationURL: String, validHours: Int)
        -> MailMessage
    {
        let separator = verificationURL.contains("?") ? "&" : "?"
        return MailMessage(
            recipient: email, subject: "Confirm your new e-mail address",
            body: """
                Someone asked to use this address for their account. If it was you, open this link within \(validHours) hours to make it your account's address:

                \(verificationURL)\(separator)token=\(token)

                Or enter this code in the app: \(code)

                Until then your account keeps its current address. If it was not you, ignore this e-mail.
                """)
    }

    static func emailChanged(to email: String, newAddress: String) -> MailMessage {
        MailMessage(
            recipient: email, subject: "Your e-mail address was changed",
            body: """
                Your account's e-mail address was just changed to \(newAddress). Mail about your account now goes there.

                If you did not do this, reset your password now and contact support.
                """)
    }

    static func addressInUse(to email: String) -> MailMessage {
        MailMessage(
            recipient: email, subject: "Your e-mail address was entered on another account",
            body: """
                Someone asked to use this address for an account, but your account already uses it, so nothing was changed.

                If it was you, sign in with this address instead. If it was not you, you need not do anything.
                """)
    }
}
