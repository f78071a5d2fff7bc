import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// `DELETE /v1/account`: the account and everything it owns go (the recent sign-in it takes is
/// `RecentSignInRequirementTests`').
@Suite struct AccountDeletionUseCaseTests {
    private struct Fixture {
        let store = InMemoryStore()
        let account: Account
        var useCase: AccountDeletionUseCase { AccountDeletionUseCase(store: store, clock: FixedClock()) }

        init() {
            account = store.addAccount(email: "sora@example.com", passwordHash: "h")
            store.add(DomainFixtures.passkey(accountID: account.id))
        }

        func session() -> RecentSession { .signedIn(account, in: store) }
    }

    @Test func theAccountIsDeletedWithEverythingItOwnsAndItsEmailIsFreeAgain() async throws {
        let f = Fixture()
        try await f.useCase.execute(session: f.session(), origin: .example)
        let tables = f.store.tables
        #expect(tables.accounts.isEmpty && tables.emails.isEmpty && tables.passwords.isEmpty)
        #expect(tables.passkeys.isEmpty)
        #expect(tables.accountID(normalizedEmail: "sora@example.com") == nil)
        // (v4) account.deleted, for the webhooks and the events API, by the deleting session.
        let event = try #require(tables.events.last)
        #expect(event.activity == .accountDeleted)
        #expect(event.kind.isWebhookOnly)
        #expect(event.accountID == f.account.id)
        #expect(event.sessionID != nil)
    }

    @Test func anAccountDeletedAlreadyIsNotFound() async throws {
        let f = Fixture()
        try await f.useCase.execute(session: f.session(), origin: .example)
        await #expect(throws: AccountManagementError.notFound) {
            try await f.useCase.execute(session: f.session(), origin: .example)
        }
    }

    @Test func aVerifiedAddressGetsTheNoticeWhichOutlivesTheAccount() async throws {
        let store = InMemoryStore()
        let account = store.addAccount(email: "sora@example.com", verified: true, language: .japanese)
        var policy = PasskeyPolicy()
        policy.mail = MailPolicy(enabled: true)
        let notifier = SecurityNotifier(policy: policy, random: SequentialRandomGenerator())
        try await AccountDeletionUseCase(store: store, notifier: notifier, clock: FixedClock())
            .execute(session: .signedIn(account, in: store), origin: .example)
        #expect(store.outbox.map(\.recipient.value) == ["sora@example.com"])
        #expect(store.tables.accounts.isEmpty)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let f = Fixture()
        f.store.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) {
            try await f.useCase.execute(session: f.session(), origin: .example)
        }
        f.store.failNext(.scripted("delete"))
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("delete"))) {
            try await f.useCase.execute(session: f.session(), origin: .example)
        }
        #expect(f.store.tables.accounts[f.account.id] != nil)
    }
}
