import Testing

@testable import GeoService

/// The vote rule posts and comments share, and karma.
@Suite struct PackVotesTests {
    @Test(arguments: [
        (0, 1, VoteTally(up: 3, down: 1)), (0, -1, VoteTally(up: 2, down: 2)), (1, -1, VoteTally(up: 1, down: 2)),
        (-1, 1, VoteTally(up: 3, down: 0)), (1, 0, VoteTally(up: 1, down: 1)), (-1, 0, VoteTally(up: 2, down: 0)),
        (1, 1, VoteTally(up: 2, down: 1)),
    ])
    func aVoteMovesOneCount(old: Int, new: Int, expected: VoteTally) {
        var tally = VoteTally(up: 2, down: 1)
        let change = tally.change(from: old, to: new)
        #expect(tally == expected)
        #expect(change.up == expected.up - 2 && change.down == expected.down - 1)
    }

    @Test func aScoreOfMinusFiveHides() {
        #expect(!VoteTally(up: 0, down: 4).hides)
        #expect(VoteTally(up: 0, down: 5).hides)
        #expect(VoteTally(up: 2, down: 8).hides)
        #expect(!VoteTally(up: 6, down: 10).hides)
    }

    @Test func karmaIsVotesEarnedPlusTwoAPost() {
        #expect(Karma.score(upVotes: 10, downVotes: 3, posts: 4) == 15)
        #expect(Karma.score(upVotes: 0, downVotes: 9, posts: 1) == -7)
    }
}
