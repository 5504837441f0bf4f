import Foundation
import GeoService
import PlatformKit
import Synchronization
import TestSupport
import Testing

/// Votes, the -5 rule, ranking, expiry and the den, on the manual clock.
@Suite struct GeoPackLifecycleTests {
    @Test func votesChangeAndAPostAtMinusFiveIsHiddenForGood() async throws {
        try await GeoWorld.run { world in
            let pack = try await world.packID(world.ann)
            let post = try await world.post(world.ann, pack, "Hot take")
            var voters: [TestUser] = []
            for index in 0..<6 {
                let voter = try await world.stack.register("voter\(index)")
                try await world.join(voter, pack)
                voters.append(voter)
            }
            func score(_ response: APIResponse) throws -> (Int, Int, Int) {
                let post = try response.decode(WirePackPost.self)
                return (post.score, post.upVotes, post.myVote)
            }
            #expect(try score(try await world.vote(voters[0], post, 1)) == (1, 1, 1))
            #expect(try score(try await world.vote(voters[0], post, 1)) == (1, 1, 1), "one vote per user")
            #expect(try score(try await world.vote(voters[0], post, -1)) == (-1, 0, -1), "changeable")
            #expect(try score(try await world.vote(voters[0], post, 0)) == (0, 0, 0), "withdrawn")
            #expect(try await world.vote(world.ann, post, 1).problem?.code == "own_post")

            for voter in voters.prefix(4) { #expect(try await world.vote(voter, post, -1).status == 200) }
            #expect(try await world.read(WirePackPost.self, world.bob, GeoPaths.posts + "/\(post)").score == -4)
            let fifth = try await world.vote(voters[4], post, -1).decode(WirePackPost.self)
            #expect(fifth.score == -5)
            #expect(fifth.hidden == true)

            // Gone for everyone but its writer, and for good: no more votes bring it back.
            #expect(try await world.api.get(GeoPaths.posts + "/\(post)", token: world.bob.accessToken).status == 404)
            #expect(try await world.ids(world.bob, GeoPaths.packs + "/\(pack)/posts").isEmpty)
            #expect(try await world.ids(voters[5], GeoPaths.feed).isEmpty)
            #expect(try await world.vote(voters[5], post, 1).status == 404)
            #expect(try await world.vote(voters[0], post, 0).status == 404)
            #expect(try await world.comment(voters[5], post, "x").status == 404)
            let mine = try await world.read(WirePackPost.self, world.ann, GeoPaths.posts + "/\(post)")
            #expect(mine.hidden == true)
            let den = try await world.read(WirePage<WirePackPost>.self, world.ann, GeoPaths.den + "/posts")
            #expect(den.items.first?.hidden == true)
            let totals = try await world.read(WireDen.self, world.ann, GeoPaths.den)
            #expect(totals.downVotesEarned == 5)
            #expect(totals.upVotesEarned == 0)
        }
    }

    @Test func topRanksByTimeDecayedScoreAcrossMyPacks() async throws {
        try await GeoWorld.run { world in
            let first = try await world.packID(world.ann)
            let second = try await world.packID(world.ann, .init(name: "Second", tags: ["other"]))
            var voters: [TestUser] = []
            for index in 0..<3 {
                let voter = try await world.stack.register("fan\(index)")
                try await world.join(voter, first)
                try await world.join(voter, second)
                voters.append(voter)
            }
            let clock = world.stack.clock
            let start = clock.now
            // Fixed data: (pack, offset from start, net votes).
            let plan: [(pack: String, hours: Double, votes: Int)] = [
                (first, 0, 3), (second, 2, 1), (first, 3, 0), (second, 20, 2), (first, 21, -1),
            ]
            var posts: [String] = []
            var ann = world.ann
            for (index, item) in plan.enumerated() {
                clock.advance(by: start.addingTimeInterval(item.hours * 3600).timeIntervalSince(clock.now))
                ann = try await world.renew(ann)
                for index in voters.indices { voters[index] = try await world.renew(voters[index]) }
                let id = try await world.post(ann, item.pack, "Post \(index)")
                for voter in voters.prefix(abs(item.votes)) {
                    #expect(try await world.vote(voter, id, item.votes > 0 ? 1 : -1).status == 200)
                }
                posts.append(id)
            }
            // Reddit's hot score, written out independently of the service.
            func hot(_ item: (pack: String, hours: Double, votes: Int)) -> Double {
                let s = Double(item.votes)
                let order = log10(max(abs(s), 1))
                let sign: Double = s > 0 ? 1 : (s < 0 ? -1 : 0)
                return sign * order + (start.timeIntervalSince1970 + item.hours * 3600) / 45_000
            }
            let expected = posts.indices.sorted { hot(plan[$0]) > hot(plan[$1]) }.map { posts[$0] }
            #expect(expected == [posts[3], posts[4], posts[0], posts[2], posts[1]])

            let viewer = voters[0]
            #expect(try await world.ids(viewer, GeoPaths.feed + "?sort=top") == expected)
            #expect(try await world.ids(viewer, GeoPaths.feed) == posts.reversed())
            #expect(
                try await world.ids(viewer, GeoPaths.packs + "/\(first)/posts?sort=top")
                    == expected.filter { [posts[0], posts[2], posts[4]].contains($0) })
            // Paged two at a time, the top feed is the same list.
            var paged: [String] = []
            var cursor: String?
            repeat {
                let page = try await world.read(
                    WirePage<WirePackPost>.self, viewer,
                    GeoPaths.feed + "?sort=top&limit=2" + (cursor.map { "&cursor=\($0)" } ?? ""))
                paged += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(paged == expected)
        }
    }

    @Test func userPacksExpireAndAreFlushedAdminPacksStay() async throws {
        let notices = RecordedNotices()
        let built = BuiltJobs()
        try await GeoWorld.run(configure: {
            $0.noticeSink = notices
            $0.jobsBuilt = { jobs in built.jobs.withLock { $0 = jobs } }
        }) { world in
            let jobs = try #require(built.jobs.withLock { $0 })
            let clock = world.stack.clock
            let created = clock.now
            let quiet = try await world.createPack(world.ann, .init(name: "Quiet"))
            let quietID = quiet.id
            let quietEnd = try #require(quiet.expiresAt)
            #expect(
                abs(quietEnd.timeIntervalSince(created.addingTimeInterval(24 * 3600))) < 1, "whole seconds on the wire")
            let admin = try await world.makeAdmin(world.dan)
            let official = try await world.api.send(
                .POST, GeoPaths.packs, token: admin.accessToken, json: GeoWorld.NewPack(name: "Campus news")
            ).decode(WirePack.self)
            #expect(official.official == true)
            #expect(official.expiresAt == nil)
            let officialID = official.id

            // A busy pack lives longer: 24 h + 24 h × (1 − e^(−points/50)).
            let busy = try await world.packID(world.ann, .init(name: "Busy"))
            try await world.join(world.bob, busy)
            try await world.join(world.cat, busy)
            let post = try await world.post(world.bob, busy, "Party at 9")
            _ = try await world.post(world.cat, busy, "Where?")
            #expect(try await world.vote(world.ann, post, 1).status == 200)
            #expect(try await world.vote(world.cat, post, 1).status == 200)
            #expect(try await world.comment(world.ann, post, "On my way").status == 201)
            let z = 1.28
            let n = 2.0
            let wilson = (1 + z * z / (2 * n) - z * sqrt(z * z / (4 * n) / n)) / (1 + z * z / n)
            let points = 2 + 2 * 2 + n * wilson
            let busyEnd = created.addingTimeInterval(24 * 3600 + 24 * 3600 * (1 - exp(-points / 50)))
            let busyView = try await world.read(WirePack.self, world.bob, GeoPaths.packs + "/\(busy)")
            let busyExpiry = try #require(busyView.expiresAt)
            #expect(abs(busyExpiry.timeIntervalSince(busyEnd)) < 1)
            #expect(busyExpiry > created.addingTimeInterval(26 * 3600))

            // An hour before its end each member is told once.
            clock.advance(by: 23 * 3600 - 60)
            #expect(try await jobs.maintainPacks(now: clock.now).warnedPacks == 0)
            clock.advance(by: 120)
            let warned = try await jobs.maintainPacks(now: clock.now)
            #expect(warned.warnedPacks == 1)
            let expiring = notices.all.filter { $0.kind == "geo.pack_expiring" }
            #expect(expiring.map(\.recipients) == [[world.ann.id]])
            #expect(expiring.first?.link == GeoPaths.packs + "/\(quietID)")
            #expect(try await jobs.maintainPacks(now: clock.now).warnedPacks == 0, "once")

            // Past its end the pack is gone at once, before any sweep; the sweep then flushes it.
            clock.advance(by: 3600)
            var (ann, bob) = (try await world.renew(world.ann), try await world.renew(world.bob))
            #expect(try await world.api.get(GeoPaths.packs + "/\(quietID)", token: ann.accessToken).status == 404)
            #expect(try await world.ids(WirePack.self, bob, GeoPaths.packs + "/mine") == [busy])
            let busyPosts = try await world.ids(bob, GeoPaths.feed)
            #expect(busyPosts.count == 2)

            clock.advance(by: busyExpiry.timeIntervalSince(clock.now) - 1800)
            #expect(
                try await jobs.maintainPacks(now: clock.now) == .init(warnedPacks: 1, flushedPacks: 1, flushedPosts: 0))
            #expect(Set(notices.all.last?.recipients ?? []) == [world.ann.id, world.bob.id, world.cat.id])
            clock.advance(by: 1801)
            (ann, bob) = (try await world.renew(ann), try await world.renew(bob))
            #expect(try await world.ids(bob, GeoPaths.feed).isEmpty)
            #expect(try await world.api.get(GeoPaths.posts + "/\(post)", token: ann.accessToken).status == 404)
            let flushed = try await jobs.maintainPacks(now: clock.now)
            #expect(flushed.flushedPacks == 1)
            #expect(flushed.flushedPosts == 2)
            #expect(
                try await jobs.maintainPacks(now: clock.now) == .init(warnedPacks: 0, flushedPacks: 0, flushedPosts: 0))

            // The den keeps the votes earned; the content is gone.
            let den = try await world.read(WireDen.self, bob, GeoPaths.den)
            #expect(den.upVotesEarned == 2)
            #expect(den.postCount == 0)
            #expect(den.commentCount == 0)
            #expect(den.packs.isEmpty)

            // The admin pack is still there a hundred days on.
            clock.advance(by: 100 * 86_400)
            _ = try await jobs.maintainPacks(now: clock.now)
            let newcomer = try await world.stack.register("newcomer")
            #expect(
                try await world.api.get(GeoPaths.packs + "/\(officialID)", token: newcomer.accessToken).status == 200)
        }
    }

    /// An official pack stays, but each of its posts lives like a user pack: 24 h, longer the more it is
    /// commented and up-voted (`OfficialPostLifetime`); the sweep flushes them and the pack's counters follow.
    @Test func postsInOfficialPacksExpireWhileThePackStays() async throws {
        let built = BuiltJobs()
        try await GeoWorld.run(configure: { $0.jobsBuilt = { jobs in built.jobs.withLock { $0 = jobs } } }) {
            world in
            let jobs = try #require(built.jobs.withLock { $0 })
            let clock = world.stack.clock
            let admin = try await world.makeAdmin(world.dan)
            let news = try await world.api.send(
                .POST, GeoPaths.packs, token: admin.accessToken, json: GeoWorld.NewPack(name: "Campus news"),
                headers: GeoWorld.atCampus()
            ).decode(WirePack.self).id
            try await world.join(world.ann, news)
            try await world.join(world.bob, news)
            let quiet = try await world.post(world.ann, news, "Lost keys")
            let discussed = try await world.post(world.bob, news, "Library closes early")
            for _ in 0..<5 { #expect(try await world.comment(world.ann, discussed, "Why?").status == 201) }
            clock.advance(by: 3600)
            var ann = try await world.renew(world.ann)
            let later = try await world.post(ann, news, "Found them")

            // 24 h after the first two: the quiet one is flushed, the discussed one lives on (10 points: +4.35 h)
            clock.advance(by: 23 * 3600 + 60)
            #expect(try await jobs.maintainPacks(now: clock.now).flushedPosts == 1)
            ann = try await world.renew(ann)
            #expect(try await world.ids(ann, GeoPaths.packs + "/\(news)/posts") == [later, discussed])
            #expect(
                try await world.api.get(
                    GeoPaths.posts + "/\(quiet)", token: ann.accessToken, headers: GeoWorld.atCampus()
                ).status == 404)
            // an hour on, the later post goes too; the discussed one until 24 h + 24 h × (1 − e^(−10/50))
            clock.advance(by: 3600)
            #expect(try await jobs.maintainPacks(now: clock.now).flushedPosts == 1)
            clock.advance(by: 3 * 3600)  // 28 h 1 min: still within its 28.35 h
            #expect(try await jobs.maintainPacks(now: clock.now).flushedPosts == 0)
            clock.advance(by: 3600)
            #expect(try await jobs.maintainPacks(now: clock.now).flushedPosts == 1)
            ann = try await world.renew(ann)
            #expect(try await world.ids(ann, GeoPaths.packs + "/\(news)/posts").isEmpty)
            // the pack itself stays, its counters follow
            let pack = try await world.read(WirePack.self, ann, GeoPaths.packs + "/\(news)")
            #expect(pack.postCount == 0)
            #expect(pack.expiresAt == nil)
        }
    }

    @Test func theDenCountsWhatIWroteAndListsMyPacks() async throws {
        let notices = RecordedNotices()
        try await GeoWorld.run(configure: { $0.noticeSink = notices }) { world in
            let pack = try await world.packID(world.ann)
            try await world.join(world.bob, pack)
            let post = try await world.post(world.bob, pack, "Mine")
            let other = try await world.post(world.ann, pack, "Ann's")
            let comment = try await world.comment(world.bob, other, "Reply").decode(WirePackComment.self).id
            #expect(try await world.vote(world.ann, post, 1).status == 200)
            // The writer hears of a comment, without learning whose; nobody hears of their own.
            #expect(try await world.comment(world.ann, other, "Thanks").status == 201)
            #expect(notices.all.map(\.recipients) == [[world.ann.id]])
            #expect(notices.kinds == ["geo.post_comment"])
            #expect(notices.all.first?.link == GeoPaths.posts + "/\(other)")
            #expect(!(notices.all.first?.text.contains("bob") ?? true))
            let den = try await world.read(WireDen.self, world.bob, GeoPaths.den)
            #expect(den.postCount == 1)
            #expect(den.commentCount == 1)
            #expect(den.upVotesEarned == 1)
            #expect(den.packs.map(\.id) == [pack])
            #expect(try await world.ids(world.bob, GeoPaths.den + "/posts") == [post])
            let comments = try await world.read(WirePage<WireMyPackComment>.self, world.bob, GeoPaths.den + "/comments")
            let item = try #require(comments.items.first)
            #expect(item.comment.id == comment)
            #expect(item.post?.id == other)
            // Nobody else's den shows my things.
            #expect(try await world.ids(world.cat, GeoPaths.den + "/posts").isEmpty)
            #expect(try await world.read(WireDen.self, world.cat, GeoPaths.den).postCount == 0)
        }
    }
}

/// The pack jobs the geo service built, kept for the test to run at the manual clock's time.
final class BuiltJobs: Sendable {
    let jobs = Mutex<GeoJobs?>(nil)
}
