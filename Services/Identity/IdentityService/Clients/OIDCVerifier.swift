import AsyncHTTPClient
import Foundation
import JWTKit
import PlatformKit

/// The claims of an ID token that we read.
struct IDTokenClaims: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var email: String?
    var emailVerified: BoolClaim?
    var name: String?
    var nonce: String?
    /// The authorized party: the client the token was issued to, when `aud` names several.
    var azp: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, email, name, nonce, azp
        case emailVerified = "email_verified"
    }

    /// Issuer, audience and expiry are checked by ``OIDCVerifier`` against the provider and the clock.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Verifies ID tokens from the configured providers: signature against the issuer's JWKS (fetched and
/// cached), issuer, audience (and authorized party), expiry, and the nonce the client sent beside it.
struct OIDCVerifier: Sendable {
    private let providers: [String: (provider: OIDCProvider, keys: RemoteKeySet)]
    private let clock: WallClock

    init(providers: [OIDCProvider], httpClient: HTTPClient, clock: WallClock) {
        var table: [String: (OIDCProvider, RemoteKeySet)] = [:]
        for provider in providers {
            table[provider.name] = (provider, RemoteKeySet(url: provider.jwksURL, httpClient: httpClient, clock: clock))
        }
        self.providers = table
        self.clock = clock
    }

    /// The configured provider whose issuers include `issuer`.
    func providerName(issuer: String) -> String? {
        providers.first { $0.value.provider.issuers.contains(issuer) }?.key
    }

    /// The issuers of a configured provider.
    func issuers(provider name: String) -> [String]? {
        providers[name]?.provider.issuers
    }

    /// The identity `idToken` proves, if it passes every check and carries `nonce` (whether the server issued that
    /// nonce is the caller's check, ``IdentityStore/consumeNonce(hash:now:)``).
    func verify(provider name: String, idToken: String, nonce: String) async throws -> ExternalIdentity {
        guard let (provider, keys) = providers[name] else {
            throw IdentityError.unknownProvider(name)
        }
        let claims: IDTokenClaims
        do {
            claims = try await keys.verify(idToken, as: IDTokenClaims.self)
        } catch is JWTError {
            throw invalid("The ID token is malformed or its signature could not be verified.")
        } catch is DecodingError {
            throw invalid("The ID token is malformed.")
        } catch {
            // The issuer's key set could not be fetched: their outage, not a bad token.
            throw IdentityError.providerUnavailable(name)
        }
        guard provider.issuers.contains(claims.iss.value) else { throw invalid("The ID token has the wrong issuer.") }
        guard claims.aud.value.contains(where: provider.audiences.contains) else {
            throw invalid("The ID token was issued for another application.")
        }
        // OpenID Connect Core 3.1.3.7, items 4-5: a token for several audiences must name us as its authorized party.
        // With one audience `azp` is left alone: Google's Android tokens name the server's client id as `aud` and the
        // Android app's as `azp`.
        if claims.aud.value.count > 1, !(claims.azp.map(provider.audiences.contains) ?? false) {
            throw invalid("The ID token names several audiences but not this application as its authorized party.")
        }
        guard claims.exp.value > clock.now else { throw invalid("The ID token has expired.") }
        guard claims.nonce == nonce else { throw invalid("The ID token's nonce does not match.") }
        return ExternalIdentity(
            issuer: claims.iss.value, subject: claims.sub.value, email: claims.email?.lowercased(),
            emailVerified: claims.emailVerified?.value ?? false, name: claims.name)
    }

    private func invalid(_ detail: String) -> IdentityError {
        .invalidIDToken(detail)
    }
}
