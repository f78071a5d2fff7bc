import PasskeyLibpq
import Testing

/// The pool's decisions with strings for connections and waiters (no database, no threads):
/// `ConnectionPoolTests` checks the same pool against a real PostgreSQL.
@Suite struct ConnectionPoolStateMachineTests {
    private typealias Machine = ConnectionPoolStateMachine<String, String>

    /// Acquires for the caller `name` (its waiter, should it have to wait).
    private static func acquire(_ machine: inout Machine, _ name: String = "caller") -> Machine.AcquireDecision {
        machine.acquire { _ in name }
    }

    /// A machine with `names` opened (generation 0) and in use.
    private static func opened(_ names: [String], maximum: Int) -> Machine {
        var machine = Machine(maximumConnections: maximum)
        for _ in names { #expect(acquire(&machine).action == .open(generation: 0)) }
        return machine
    }

    @Test func connectionsAreOpenedUpToTheMaximumThenCallersWait() {
        var machine = Machine(maximumConnections: 2)
        #expect(Self.acquire(&machine, "a") == .init(action: .open(generation: 0), discarded: []))
        #expect(Self.acquire(&machine, "b").action == .open(generation: 0))
        #expect(machine.openConnections == 2)
        #expect(Self.acquire(&machine, "c").action == .wait(1))
        #expect(Self.acquire(&machine, "d").action == .wait(2))
        #expect(machine.openConnections == 2)
        #expect(machine.waiting == [1, 2])
    }

    @Test func aWaiterIsMadeOnlyForACallerThatWaitsWithItsOwnID() {
        var machine = Machine(maximumConnections: 1)
        var made: [Machine.WaiterID] = []
        _ = machine.acquire { id in
            made.append(id)
            return "a"
        }
        #expect(made.isEmpty)
        _ = machine.acquire { id in
            made.append(id)
            return "b"
        }
        #expect(made == [1])
    }

    @Test func aReturnedConnectionIsKeptAndTheLastReturnedIsUsedFirst() {
        var machine = Self.opened(["x", "y"], maximum: 2)
        #expect(machine.release("x", generation: 0, healthy: true) == .keep)
        #expect(machine.release("y", generation: 0, healthy: true) == .keep)
        #expect(machine.idleConnections == 2)
        #expect(Self.acquire(&machine).action == .use("y"))
        #expect(Self.acquire(&machine).action == .use("x"))
        #expect(machine.idleConnections == 0)
        #expect(machine.openConnections == 2)
    }

    @Test func anIdleConnectionIsUsedBeforeAnotherIsOpened() {
        var machine = Self.opened(["x"], maximum: 3)
        _ = machine.release("x", generation: 0, healthy: true)
        #expect(Self.acquire(&machine).action == .use("x"))
        #expect(machine.openConnections == 1)
    }

    @Test func waitersAreServedFirstComeFirstOnRelease() {
        var machine = Self.opened(["x"], maximum: 1)
        #expect(Self.acquire(&machine, "first").action == .wait(1))
        #expect(Self.acquire(&machine, "second").action == .wait(2))
        #expect(machine.release("x", generation: 0, healthy: true) == .handOver("first", "x"))
        #expect(machine.release("x", generation: 0, healthy: true) == .handOver("second", "x"))
        #expect(machine.release("x", generation: 0, healthy: true) == .keep)
        #expect(machine.waiting.isEmpty)
        #expect(machine.openConnections == 1)
    }

    @Test func aTimeoutRemovesTheExpiredHeadOfTheLineOnly() {
        var machine = Self.opened(["x"], maximum: 1)
        for name in ["first", "second", "third"] { _ = Self.acquire(&machine, name) }
        #expect(machine.firstWaiter == "first")
        // The line is the order of the deadlines: nothing behind a live waiter is looked at.
        #expect(machine.timeOutExpired { $0 == "second" }.isEmpty)
        #expect(machine.waiting == [1, 2, 3])
        #expect(machine.timeOutExpired { $0 != "third" } == ["first", "second"])
        #expect(machine.waiting == [3])
        #expect(machine.firstWaiter == "third")
        #expect(machine.timeOutExpired { _ in false }.isEmpty)
        #expect(machine.release("x", generation: 0, healthy: true) == .handOver("third", "x"))
        #expect(machine.firstWaiter == nil)
    }

    @Test func aReleaseAfterTheOnlyWaiterTimedOutKeepsTheConnection() {
        var machine = Self.opened(["x"], maximum: 1)
        #expect(Self.acquire(&machine, "late").action == .wait(1))
        #expect(machine.timeOutExpired { _ in true } == ["late"])
        #expect(machine.release("x", generation: 0, healthy: true) == .keep)
        #expect(Self.acquire(&machine).action == .use("x"))
    }

    @Test func aServedWaitersTimeoutFindsNothing() {
        var machine = Self.opened(["x"], maximum: 1)
        _ = Self.acquire(&machine, "served")
        _ = machine.release("x", generation: 0, healthy: true)
        #expect(machine.timeOutExpired { _ in true }.isEmpty)
    }

    @Test func aCancelledWaiterLeavesTheLineAndIsNotServed() {
        var machine = Self.opened(["x"], maximum: 1)
        for name in ["first", "cancelled", "third"] { _ = Self.acquire(&machine, name) }
        #expect(machine.cancel(2) == "cancelled")
        #expect(machine.waiting == [1, 3])
        #expect(machine.release("x", generation: 0, healthy: true) == .handOver("first", "x"))
        #expect(machine.release("x", generation: 0, healthy: true) == .handOver("third", "x"))
        #expect(machine.release("x", generation: 0, healthy: true) == .keep)
        #expect(machine.openConnections == 1)
    }

    @Test func cancellingAWaiterThatNoLongerWaitsDoesNothing() {
        var machine = Self.opened(["x"], maximum: 1)
        _ = Self.acquire(&machine, "served")
        _ = Self.acquire(&machine, "timedOut")
        #expect(machine.release("x", generation: 0, healthy: true) == .handOver("served", "x"))
        #expect(machine.cancel(1) == nil)
        #expect(machine.timeOutExpired { _ in true } == ["timedOut"])
        #expect(machine.cancel(2) == nil)
        #expect(machine.cancel(99) == nil)
        #expect(machine.waiting.isEmpty)
    }

    @Test func aCancelledHeadOfTheLineLeavesTheTimerTheNextWaiter() {
        var machine = Self.opened(["x"], maximum: 1)
        _ = Self.acquire(&machine, "first")
        _ = Self.acquire(&machine, "second")
        #expect(machine.cancel(1) == "first")
        #expect(machine.firstWaiter == "second")
    }

    @Test func aBrokenConnectionIsClosedAndOlderIdleOnesAreDiscardedWhenMet() {
        var machine = Self.opened(["old1", "old2", "broken"], maximum: 3)
        _ = machine.release("old1", generation: 0, healthy: true)
        _ = machine.release("old2", generation: 0, healthy: true)
        #expect(machine.release("broken", generation: 0, healthy: false) == .close("broken"))
        #expect(machine.generation == 1)
        #expect(machine.openConnections == 2)
        #expect(Self.acquire(&machine) == .init(action: .open(generation: 1), discarded: ["old2", "old1"]))
        #expect(machine.openConnections == 1)
        #expect(machine.idleConnections == 0)
    }

    @Test func anIdleConnectionOfTheNewGenerationIsUsedAndOlderOnesBelowItStayUntilMet() {
        var machine = Self.opened(["old", "other", "broken"], maximum: 3)
        _ = machine.release("broken", generation: 0, healthy: false)
        #expect(Self.acquire(&machine).action == .open(generation: 1))
        _ = machine.release("old", generation: 0, healthy: true)
        _ = machine.release("new", generation: 1, healthy: true)
        #expect(Self.acquire(&machine) == .init(action: .use("new"), discarded: []))
        #expect(machine.idleConnections == 1)
        #expect(Self.acquire(&machine) == .init(action: .open(generation: 1), discarded: ["old"]))
        #expect(machine.openConnections == 3)
    }

    @Test func aBrokenConnectionIsReplacedForTheFirstWaiterInTheNewGeneration() {
        var machine = Self.opened(["broken", "old"], maximum: 2)
        _ = Self.acquire(&machine, "first")
        _ = Self.acquire(&machine, "second")
        #expect(
            machine.release("broken", generation: 0, healthy: false)
                == .openFor("first", generation: 1, closing: "broken"))
        #expect(machine.openConnections == 2)
        #expect(machine.waiting == [2])
        // A healthy connection of the old generation still goes to a waiter when one waits.
        #expect(machine.release("old", generation: 0, healthy: true) == .handOver("second", "old"))
        #expect(machine.release("old", generation: 0, healthy: true) == .keep)
        #expect(Self.acquire(&machine) == .init(action: .open(generation: 1), discarded: ["old"]))
    }

    @Test func aBrokenConnectionOfAnOlderGenerationDoesNotBumpItAgain() {
        var machine = Self.opened(["a", "b"], maximum: 2)
        _ = machine.release("a", generation: 0, healthy: false)
        #expect(machine.generation == 1)
        _ = machine.release("b", generation: 0, healthy: false)
        #expect(machine.generation == 1)
        #expect(machine.openConnections == 0)
    }

    @Test func aFailedOpenNoLongerCounts() {
        var machine = Machine(maximumConnections: 1)
        #expect(Self.acquire(&machine).action == .open(generation: 0))
        machine.openFailed()
        #expect(machine.openConnections == 0)
        #expect(Self.acquire(&machine).action == .open(generation: 0))
    }

    @Test func closingRefusesNewCallersAndFailsTheWaiters() {
        var machine = Self.opened(["x"], maximum: 1)
        _ = Self.acquire(&machine, "first")
        _ = Self.acquire(&machine, "second")
        #expect(machine.close() == .init(closing: [], failing: ["first", "second"]))
        #expect(machine.isClosed)
        #expect(machine.waiting.isEmpty)
        #expect(machine.timeOutExpired { _ in true }.isEmpty)
        #expect(Self.acquire(&machine, "third") == .init(action: .refuse, discarded: []))
        #expect(machine.close() == .init(closing: [], failing: []))
    }

    @Test func closingClosesTheIdleConnections() {
        var machine = Self.opened(["x", "y", "busy"], maximum: 3)
        _ = machine.release("x", generation: 0, healthy: true)
        _ = machine.release("y", generation: 0, healthy: true)
        #expect(machine.close() == .init(closing: ["x", "y"], failing: []))
        #expect(machine.openConnections == 1)
        #expect(machine.idleConnections == 0)
    }

    @Test func aConnectionReturnedAfterClosingIsClosed() {
        var machine = Self.opened(["healthy", "broken"], maximum: 2)
        _ = machine.close()
        #expect(machine.release("healthy", generation: 0, healthy: true) == .close("healthy"))
        #expect(machine.release("broken", generation: 0, healthy: false) == .close("broken"))
        #expect(machine.openConnections == 0)
        #expect(machine.idleConnections == 0)
    }
}
