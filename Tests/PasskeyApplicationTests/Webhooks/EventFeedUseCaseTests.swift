import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Synchronization
import Testing

/// The events API's page rules over a scripted log: the limit's bounds, what `next` is on a full,
/// a short and an empty page, and repository failures.
@Suite struct EventFeedUseCaseTests {
    /// A log of `count` events at cursors (1, 1)…(1, count); remembers what it was asked.
    final class ScriptedLog: EventLogRepository {
        let events: [LoggedEvent]
        let asked = Mutex<[(EventLogCursor?, Int)]>([])
        let failure = Mutex<RepositoryError?>(nil)

        init(count: Int) {
            let account = AccountID()
            events = (1...max(1, count)).prefix(count).map { n in
                LoggedEvent(
                    id: AccountEventID(), accountID: account, kind: "sign-in", occurredAt: Date(),
                    clientAddress: "192.0.2.1", userAgent: "", method: "password", credentialID: nil, sessionID: nil,
                    actor: nil, stageChange: nil, cursor: EventLogCursor(transaction: 1, position: Int64(n)))
            }
        }

        func events(after cursor: EventLogCursor?, limit: Int) async throws(RepositoryError) -> [LoggedEvent] {
            asked.withLock { $0.append((cursor, limit)) }
            if let error = failure.withLock({ $0 }) { throw error }
            return Array(events.filter { cursor == nil || $0.cursor > cursor! }.prefix(limit))
        }
    }

    @Test func pagesFollowEachOtherAndAnEmptyPageKeepsTheCursor() async throws {
        let log = ScriptedLog(count: 5)
        let feed = EventFeedUseCase(log: log)
        let first = try await feed.execute(after: nil, limit: 2)
        #expect(first.events.map(\.cursor.position) == [1, 2])
        #expect(first.next == EventLogCursor(transaction: 1, position: 2))
        let second = try await feed.execute(after: first.next, limit: 10)
        #expect(second.events.map(\.cursor.position) == [3, 4, 5])
        let empty = try await feed.execute(after: second.next, limit: 10)
        #expect(empty.events.isEmpty)
        #expect(empty.next == second.next, "a feed is polled from where it stands")
        #expect(log.asked.withLock { $0.map(\.1) } == [2, 10, 10])
    }

    @Test func nextIsNilOnlyWhileNoEventWasSeen() async throws {
        let page = try await EventFeedUseCase(log: ScriptedLog(count: 0)).execute(after: nil)
        #expect(page.events.isEmpty)
        #expect(page.next == nil)
    }

    @Test func theLimitIsOneToAThousandAndDefaultsToAHundred() async throws {
        let log = ScriptedLog(count: 1)
        let feed = EventFeedUseCase(log: log)
        for limit in [0, -1, 1001] {
            await #expect(throws: EventFeedError.invalidLimit) { try await feed.execute(after: nil, limit: limit) }
        }
        _ = try await feed.execute(after: nil)
        _ = try await feed.execute(after: nil, limit: 1000)
        #expect(log.asked.withLock { $0.map(\.1) } == [100, 1000], "a refused limit reads nothing")
    }

    @Test func aDatabaseAwayIsUnavailable() async throws {
        let log = ScriptedLog(count: 1)
        log.failure.withLock { $0 = .unavailable }
        await #expect(throws: EventFeedError.unavailable) { try await EventFeedUseCase(log: log).execute(after: nil) }
    }

    @Test func aCursorSurvivesItsWireForm() {
        let cursors = [
            EventLogCursor(transaction: 0, position: 0), EventLogCursor(transaction: 742, position: 9_000_000_001),
            EventLogCursor(transaction: .max, position: .max),
        ]
        for cursor in cursors {
            #expect(cursor.wireValue.count == 22)
            #expect(EventLogCursor(wireValue: cursor.wireValue) == cursor)
        }
        // Not 16 bytes in canonical base64url.
        let bad = [
            "", "AAAA", String(repeating: "A", count: 23), "AAAAAAAAAAAAAAAAAAAAA=", "AAAAAAAAAAAAAAAAAAAAA+",
            "0000000000000000000000",
        ]
        for value in bad { #expect(EventLogCursor(wireValue: value) == nil, "\(value)") }
        // A position past the largest bigint is after every row of its transaction.
        let far = Base64URL.encode(Array(repeating: 0, count: 7) + [5] + Array(repeating: 0xFF, count: 8))
        #expect(EventLogCursor(wireValue: far) == EventLogCursor(transaction: 5, position: .max))
    }
}
