/// Why the identity service refused a request; `Controllers/IdentityError+Problem.swift` turns each into its
/// answer.
enum IdentityError: Error, Equatable {
    /// A field is not acceptable: `field` as the client wrote it, `detail` what it must be.
    case invalidField(String, String)
    /// A password the policy refuses: `field` as the client wrote it, `detail` why.
    case weakPassword(field: String, String)
    /// Nothing of the caller's under that name; `what` is how the answer names it ("The user").
    case notFound(String)
    case usernameTaken(String)
    case emailTaken
    case invalidCredentials
    case invalidCurrentPassword
    case invalidRefreshToken
    /// A refresh token came back outside its grace window: its session is signed out.
    case refreshTokenReused
    /// The session is past its absolute or idle lifetime (``SessionLifetime``): sign in again.
    case sessionExpired
    /// No nonce the server issued, unused and unexpired, has this value.
    case invalidNonce
    case invalidResetToken
    case invalidVerificationToken
    case noEmail
    case emailAlreadyVerified
    /// No sign-in provider of that name is configured.
    case unknownProvider(String)
    /// The ID token failed a check; `detail` says which.
    case invalidIDToken(String)
    /// The provider's key set could not be fetched.
    case providerUnavailable(String)
    /// An account has the provider's e-mail, but one side has not proved the address.
    case accountExists
    case identityLinkedElsewhere(provider: String)
    case lastSignInMethod
}
