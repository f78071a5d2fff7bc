import Foundation
import PasskeyLibpq
import Synchronization
import Testing

/// The event loop on its own, with pipes for sockets (no database): it runs the tasks that prefer
/// it on its one thread, and resumes a socket's waiter when the socket is ready, not before.
@Suite struct PostgresEventLoopTests {
    private static func makePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    @Test func aTaskThatPrefersTheLoopStaysOnItsThreadAcrossSuspensions() async throws {
        let threads = await Task(executorPreference: PostgresEventLoop.shared) { () -> Set<UInt> in
            var seen: Set<UInt> = [UInt(pthread_self())]
            await Task.yield()
            seen.insert(UInt(pthread_self()))
            try? await Task.sleep(for: .milliseconds(5))
            seen.insert(UInt(pthread_self()))
            return seen
        }.value
        #expect(threads.count == 1)
        #expect(!threads.contains(UInt(pthread_self())), "the test's own thread is not the loop")
    }

    @Test func aWaiterIsResumedWhenItsSocketBecomesReadableAndNotBefore() async throws {
        let loop = PostgresEventLoop.shared
        let (readEnd, writeEnd) = Self.makePipe()
        defer {
            loop.forget(readEnd)
            loop.forget(writeEnd)
            close(readEnd)
            close(writeEnd)
        }
        let resumed = Mutex(false)
        let waiter = Task(executorPreference: loop) {
            await loop.wait(for: readEnd)
            resumed.withLock { $0 = true }
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(!resumed.withLock { $0 }, "resumed before anything was written")
        var byte: UInt8 = 1
        #expect(write(writeEnd, &byte, 1) == 1)
        await waiter.value
        #expect(resumed.withLock { $0 })
        // Ready to write at once; and a socket can be waited for again (it is re-armed).
        await loop.wait(for: writeEnd, writable: true)
        await loop.wait(for: readEnd)
    }

    @Test func forgettingASocketResumesItsWaiter() async throws {
        let loop = PostgresEventLoop.shared
        let (readEnd, writeEnd) = Self.makePipe()
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let waiter = Task { await loop.wait(for: readEnd) }
        // Time for the waiter to register (it is then forgotten while it waits).
        try await Task.sleep(for: .milliseconds(200))
        loop.forget(readEnd)
        await waiter.value
    }
}
