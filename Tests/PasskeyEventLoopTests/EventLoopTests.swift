import Foundation
import PasskeyEventLoop
import Synchronization
import Testing

/// The event loop on its own, with pipes for sockets (no database): it runs the tasks that prefer
/// it on its one thread, resumes a socket's waiter when the socket is ready, not before, and its
/// thread ends when it is shut down.
@Suite struct EventLoopTests {
    private static func makePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        return (fds[0], fds[1])
    }

    @Test func aTaskThatPrefersTheLoopStaysOnItsThreadAcrossSuspensions() async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let threads = await Task(executorPreference: loop) { () -> Set<UInt> in
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
        let loop = EventLoop()
        defer { loop.shutdown() }
        let (readEnd, writeEnd) = Self.makePipe()
        defer {
            loop.forget(readEnd)
            loop.forget(writeEnd)
            close(readEnd)
            close(writeEnd)
        }
        let resumed = Mutex(false)
        let waiter = Task(executorPreference: loop) {
            let ready = await loop.wait(for: readEnd)
            resumed.withLock { $0 = true }
            return ready
        }
        try await Task.sleep(for: .milliseconds(100))
        #expect(!resumed.withLock { $0 }, "resumed before anything was written")
        var byte: UInt8 = 1
        #expect(write(writeEnd, &byte, 1) == 1)
        #expect(await waiter.value)
        #expect(resumed.withLock { $0 })
        // Ready to write at once; and a socket can be waited for again (it is re-armed).
        #expect(await loop.wait(for: writeEnd, writable: true))
        #expect(await loop.wait(for: readEnd))
    }

    @Test func forgettingASocketResumesItsWaiter() async throws {
        let loop = EventLoop()
        defer { loop.shutdown() }
        let (readEnd, writeEnd) = Self.makePipe()
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let waiter = Task { await loop.wait(for: readEnd) }
        // Time for the waiter to register (it is then forgotten while it waits).
        try await Task.sleep(for: .milliseconds(200))
        loop.forget(readEnd)
        _ = await waiter.value
    }

    /// `shutdown()` returns once the thread has ended: the thread held the loop while it ran, and
    /// has let go of it by then (a detached thread still running would keep it alive).
    @Test func shutdownEndsAndJoinsTheLoopsThread() async throws {
        weak var weakLoop: EventLoop?
        do {
            let loop = EventLoop()
            weakLoop = loop
            let onLoop = await Task(executorPreference: loop) { UInt(pthread_self()) }.value
            #expect(onLoop != UInt(pthread_self()))
            #expect(loop.isRunning)
            loop.shutdown()
            #expect(!loop.isRunning)
            loop.shutdown()  // Again: nothing to do.
        }
        #expect(weakLoop == nil, "the loop's thread still holds the loop after shutdown()")
    }

    /// After `shutdown()` nothing hangs: a task that prefers the loop still runs (on the global
    /// executor: the loop's thread has ended), and a socket wait returns false at once; a waiter
    /// caught by the shutdown is resumed. (Thread IDs cannot tell the threads apart here: a new
    /// thread may reuse the ended one's `pthread_t`.)
    @Test func afterShutdownTasksRunElsewhereAndWaitsReturnFalse() async throws {
        let loop = EventLoop()
        let (readEnd, writeEnd) = Self.makePipe()
        defer {
            close(readEnd)
            close(writeEnd)
        }
        let caught = Task { await loop.wait(for: readEnd) }
        try await Task.sleep(for: .milliseconds(100))  // Time for it to register.
        loop.shutdown()
        #expect(!loop.isRunning)
        #expect(await caught.value == false)
        let after = await Task(executorPreference: loop) { () -> Bool in
            await Task.yield()
            return await loop.wait(for: writeEnd, writable: true)
        }.value
        #expect(after == false)
    }
}
