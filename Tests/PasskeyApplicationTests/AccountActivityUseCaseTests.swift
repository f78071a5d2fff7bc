import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// (v3) `GET /v1/account/activity`: pages of the account's own events, newest first.
@Suite struct AccountActivityUseCaseTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    static func event(_ accountID: AccountID, second: Double, id: UUID = UUID()) -> AccountEvent {
        AccountEvent(
            id: AccountEventID(id), accountID: accountID, activity: .passwordSet,
            occurredAt: start.addingTimeInterval(second), clientAddress: "192.0.2.1", userAgent: nil, sessionID: nil)
    }

    @Test func pagesFollowEachOtherWithoutRepeatOrGapAndTheLastHasNoNext() async throws {
        let repository = InMemoryAccountEventRepository()
        let session = ActiveSession.signedIn(at: Self.start)
        let mine = (0..<7).map { Self.event(session.account.id, second: Double($0)) }
        for event in mine { repository.append(event) }
        repository.append(Self.event(AccountID(), second: 3.5))
        let useCase = AccountActivityUseCase(events: repository)

        var seen: [AccountEvent] = []
        var before: ActivityCursor?
        var pages = 0
        repeat {
            let page = try await useCase.execute(session: session, limit: 3, before: before)
            seen += page.events
            before = page.next
            pages += 1
        } while before != nil && pages < 10
        #expect(pages == 3)
        #expect(seen == mine.reversed())
        #expect(repository.requestedLimits == [4, 4, 4])
    }

    @Test func aFullLastPageHasNoNext() async throws {
        let repository = InMemoryAccountEventRepository()
        let session = ActiveSession.signedIn(at: Self.start)
        for second in 0..<2 { repository.append(Self.event(session.account.id, second: Double(second))) }
        let page = try await AccountActivityUseCase(events: repository).execute(session: session, limit: 2, before: nil)
        #expect(page.events.count == 2)
        #expect(page.next == nil)
    }

    @Test func equalTimesAreOrderedByTheIDsBytesDescending() async throws {
        let repository = InMemoryAccountEventRepository()
        let session = ActiveSession.signedIn(at: Self.start)
        let low = Self.event(
            session.account.id, second: 0, id: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!)
        let high = Self.event(
            session.account.id, second: 0, id: UUID(uuidString: "ff000000-0000-4000-8000-000000000000")!)
        repository.append(low)
        repository.append(high)
        let useCase = AccountActivityUseCase(events: repository)
        let first = try await useCase.execute(session: session, limit: 1, before: nil)
        #expect(first.events == [high])
        let second = try await useCase.execute(session: session, limit: 1, before: first.next)
        #expect(second.events == [low])
        #expect(second.next == nil)
    }

    @Test func anotherAccountsCursorOnlyBoundsTheCallersOwnEvents() async throws {
        let repository = InMemoryAccountEventRepository()
        let session = ActiveSession.signedIn(at: Self.start)
        let stranger = Self.event(AccountID(), second: 10)
        let mine = Self.event(session.account.id, second: 5)
        repository.append(stranger)
        repository.append(mine)
        let page = try await AccountActivityUseCase(events: repository)
            .execute(session: session, before: ActivityCursor(after: stranger))
        #expect(page.events == [mine])
    }

    @Test(arguments: [0, 101, -1])
    func aLimitOutsideTheRangeNeverReachesTheRepository(limit: Int) async throws {
        let repository = InMemoryAccountEventRepository()
        await #expect(throws: AccountManagementError.self) {
            try await AccountActivityUseCase(events: repository)
                .execute(session: .signedIn(at: Self.start), limit: limit, before: nil)
        }
        #expect(repository.requestedLimits.isEmpty)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let repository = InMemoryAccountEventRepository()
        let useCase = AccountActivityUseCase(events: repository)
        repository.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) {
            try await useCase.execute(session: .signedIn(at: Self.start), before: nil)
        }
        repository.failNext(.scripted("events"))
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("events"))) {
            try await useCase.execute(session: .signedIn(at: Self.start), before: nil)
        }
    }
}
