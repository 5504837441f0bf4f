import Synchronization
import Testing

@testable import ServiceKit

/// A ``ChangeBell`` wakes a waiting poll when it rings, and a ring that came after the poll read the generation
/// (while it queried) is not slept through. The waits here are an hour: only the ring can end them, so the tests
/// assert the wake without timing it (the time limit catches a poll that is never woken).
@Suite(.timeLimit(.minutes(1))) struct ChangeBellTests {
    @Test func aRingWakesAWaitingPoll() async throws {
        let bell = ChangeBell()
        let generation = bell.generation
        let woken = Mutex(false)
        async let waited: Void = {
            await bell.wait(after: generation, timeout: .seconds(3600))
            woken.withLock { $0 = true }
        }()
        // The ring may come before the child task starts waiting or while it waits: either way it ends the wait.
        bell.ring()
        await waited
        #expect(woken.withLock { $0 })
        #expect(bell.generation == generation + 1)
    }

    @Test func aRingWhileThePollQueriedIsNotSleptThrough() async throws {
        let bell = ChangeBell()
        let generation = bell.generation
        bell.ring()
        // Returns at once: the ring came after `generation` was read.
        await bell.wait(after: generation, timeout: .seconds(3600))
        #expect(bell.generation == generation + 1)
    }

    @Test func everyWaitingPollIsWokenByOneRing() async throws {
        let bell = ChangeBell()
        let generation = bell.generation
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { await bell.wait(after: generation, timeout: .seconds(3600)) }
            }
            bell.ring()
            await group.waitForAll()
        }
        #expect(bell.generation == generation + 1)
    }

    @Test func aCancelledPollStopsWaiting() async throws {
        let bell = ChangeBell()
        let poll = Task { await bell.wait(after: bell.generation, timeout: .seconds(3600)) }
        poll.cancel()
        await poll.value
        #expect(bell.generation == 0)
    }
}
