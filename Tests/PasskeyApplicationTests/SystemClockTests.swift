import Foundation
import PasskeyApplication
import Testing

/// The production `WallClock`: the system's time, read anew on every call.
@Suite struct SystemClockTests {
    @Test func nowIsTheSystemsTime() {
        let clock: any WallClock = SystemClock()
        let before = Date()
        let now = clock.now
        let after = Date()
        #expect(abs(now.timeIntervalSince(before)) < 1)
        #expect(abs(now.timeIntervalSince(after)) < 1)
    }

    @Test func nowDoesNotGoBackwardsAcrossCalls() {
        let clock = SystemClock()
        let readings = (0..<1_000).map { _ in clock.now }
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func nowMovesOnWithTime() async throws {
        let clock = SystemClock()
        let first = clock.now
        try await Task.sleep(for: .milliseconds(20))
        #expect(clock.now.timeIntervalSince(first) >= 0.015)
    }
}
