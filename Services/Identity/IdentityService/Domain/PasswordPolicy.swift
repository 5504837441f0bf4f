/// What makes a password acceptable, after NIST SP 800-63B: length over composition rules, and no
/// password that is common or made of the account's own names.
enum PasswordPolicy {
    static let minimumLength = 10
    /// bcrypt reads only the first 72 bytes; a longer password is refused rather than silently truncated
    /// (or pre-hashed, which would make stored hashes depend on our pre-hash forever).
    static let maximumBytes = 72

    static func check(_ password: String, username: String?, email: String?, field: String = "password") throws {
        // bcrypt reads a C string: everything after a NUL byte would be silently dropped from the hash.
        guard !password.utf8.contains(0) else {
            throw IdentityError.invalidField(field, "must not contain a NUL character.")
        }
        guard password.count >= minimumLength else {
            throw weak(field, "must be at least \(minimumLength) characters.")
        }
        guard password.utf8.count <= maximumBytes else {
            throw weak(field, "must be at most \(maximumBytes) bytes.")
        }
        let lowered = password.lowercased()
        if commonPasswords.contains(lowered) || Set(lowered).count < 5 {
            throw weak(field, "is too common or too easy to guess.")
        }
        let names = [username, email?.split(separator: "@").first.map(String.init)].compactMap { $0?.lowercased() }
        if names.contains(where: { $0.count >= 3 && lowered.contains($0) }) {
            throw weak(field, "must not contain your username or e-mail name.")
        }
    }

    private static func weak(_ field: String, _ detail: String) -> IdentityError {
        .weakPassword(field: field, detail)
    }

    /// The most common passwords of ten characters or more in public breach corpora.
    private static let commonPasswords: Set<String> = [
        "1234567890", "12345678910", "0123456789", "1111111111", "0987654321", "1q2w3e4r5t", "qwertyuiop",
        "password12", "password123", "password1234", "passw0rd123", "iloveyou12", "1qaz2wsx3edc", "qwerty1234",
        "qwerty12345", "abc1234567", "abcdefghij", "letmein123", "welcome123", "football123", "baseball123",
        "princess12", "sunshine12", "1234qwerty", "q1w2e3r4t5", "administrator", "changeme123", "superman123",
        "monkey1234", "dragon1234", "asdfghjkl1", "zxcvbnm123", "1234567890a", "a1234567890", "trustno1234",
    ]
}
