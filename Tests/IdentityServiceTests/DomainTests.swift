import Crypto
import Foundation
import PlatformKit
import Testing

@testable import IdentityService

@Suite struct PasswordPolicyTests {
    static let seventyTwoBytes = String(
        "the quick brown fox jumps over the lazy dog 0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ".prefix(72))

    @Test(arguments: ["ten chars!", "correct horse battery staple", Self.seventyTwoBytes])
    func acceptsLongUncommonPasswords(password: String) throws {
        try PasswordPolicy.check(password, username: "alice", email: "alice@example.com")
    }

    @Test(arguments: [
        "nine char", "1234567890", "Password123", "aaaaaaaaaaaa", "ababababab12", "my alice password",
        "alice@example.com!",
        Self.seventyTwoBytes + "x",
    ])
    func refusesWeakPasswords(password: String) {
        #expect(throws: IdentityError.self) {
            try PasswordPolicy.check(password, username: "alice", email: "alice@example.com")
        }
    }
}

@Suite struct RefreshPolicyTests {
    let now = Date(timeIntervalSince1970: 1_000_000)

    @Test func anUnrotatedTokenRotates() {
        #expect(RefreshPolicy.decide(rotatedAt: nil, now: now) == .rotate)
    }

    @Test func aRotatedTokenIsAcceptedForTenSeconds() {
        #expect(RefreshPolicy.decide(rotatedAt: now.addingTimeInterval(-10), now: now) == .rotate)
        #expect(RefreshPolicy.decide(rotatedAt: now.addingTimeInterval(-10.001), now: now) == .reject)
    }
}

@Suite struct PasswordNULTests {
    /// bcrypt would hash only "a" (issue 16, item 7).
    @Test func aNULByteIsRefusedNamingTheField() {
        #expect(throws: IdentityError.self) {
            try PasswordPolicy.check("a\u{0}bcdefghijk", username: nil, email: nil)
        }
        do {
            try PasswordPolicy.check("correct horse\u{0} battery", username: nil, email: nil, field: "newPassword")
            Issue.record("accepted a NUL byte")
        } catch let error as IdentityError {
            #expect(error.problem.statusCode == 400)
            #expect(error.problem.code == "invalid_new_password")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

@Suite struct RefreshTokenChainTests {
    @Test func successorsAreDeterministicPerKeyAndUnguessableWithoutIt() {
        let key = Curve25519.Signing.PrivateKey()
        let chain = RefreshTokenChain(signingKey: key)
        #expect(chain.successors(of: "t0") == RefreshTokenChain(signingKey: key).successors(of: "t0"))
        #expect(chain.successors(of: "t0").first == chain.successor(of: "t0"))
        #expect(chain.successors(of: "t0")[1] == chain.successor(of: chain.successor(of: "t0")))
        #expect(Set(chain.successors(of: "t0")).count == RefreshTokenChain.depth)
        #expect(
            RefreshTokenChain(signingKey: Curve25519.Signing.PrivateKey()).successor(of: "t0")
                != chain.successor(of: "t0"))
    }
}
