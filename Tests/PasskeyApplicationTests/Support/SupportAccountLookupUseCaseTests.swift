import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// (v4) The support desk's reads: an exact address finds its account (or none), an account reads
/// with its figures, and its activity pages as the user's does.
@Suite struct SupportAccountLookupUseCaseTests {
    private func useCase(_ f: SupportFixture, events: InMemoryAccountEventRepository = .init())
        -> SupportAccountLookupUseCase
    {
        SupportAccountLookupUseCase(store: f.store, events: events, clock: f.clock)
    }

    @Test func anExactAddressFindsItsAccountWithItsFigures() async throws {
        let f = SupportFixture()
        _ = f.store.signIn(f.account, at: f.clock.now)
        f.store.add(DomainFixtures.passkey(accountID: f.account.id, createdAt: f.clock.now))
        let found = try await useCase(f).find(email: "Riku@Example.com")
        let account = try #require(found.first)
        #expect(found.count == 1)
        #expect(account.account == f.account)
        #expect(account.email.value == "riku@example.com")
        #expect(account.emailVerified)
        #expect(account.hasPassword)
        #expect(account.passkeys.count == 1)
        #expect(account.stage == .passwordAndPasskey)
        #expect(account.activeSessions == 1)
        #expect(account.lock == nil)
        #expect(try await useCase(f).find(email: "riku+other@example.com").isEmpty)
        await #expect(throws: SupportDeskError.self) { try await useCase(f).find(email: "not an address") }
    }

    @Test func anUnknownAccountIsNotFound() async throws {
        let f = SupportFixture()
        await #expect(throws: SupportDeskError.notFound) { try await useCase(f).account(AccountID()) }
        await #expect(throws: SupportDeskError.notFound) { try await useCase(f).account(nil) }
        await #expect(throws: SupportDeskError.notFound) {
            try await useCase(f).activity(of: AccountID(), limit: 10, before: nil)
        }
    }

    @Test func theActivityPagesNewestFirst() async throws {
        let f = SupportFixture()
        let events = InMemoryAccountEventRepository()
        let maker = AccountEventMaker()
        for offset in 0..<3 {
            events.append(
                maker.event(
                    .accountUnlocked, accountID: f.account.id, at: f.clock.now.addingTimeInterval(Double(offset)),
                    by: SupportFixture.agent))
        }
        let page = try await useCase(f, events: events).activity(of: f.account.id, limit: 2, before: nil)
        #expect(page.events.count == 2)
        #expect(page.next != nil)
        #expect(page.events.first?.occurredAt == f.clock.now.addingTimeInterval(2))
        await #expect(throws: SupportDeskError.self) {
            try await useCase(f, events: events).activity(of: f.account.id, limit: 0, before: nil)
        }
    }
}
