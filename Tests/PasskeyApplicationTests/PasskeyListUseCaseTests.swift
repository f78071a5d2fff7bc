import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Listing passkeys: the signed-in account's own, oldest first.
@Suite struct PasskeyListUseCaseTests {
    @Test func theAccountsPasskeysAreListedOldestFirst() async throws {
        let passkeys = InMemoryStore()
        let account = DomainFixtures.account()
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let newer = DomainFixtures.passkey(accountID: account.id, createdAt: now)
        let older = DomainFixtures.passkey(accountID: account.id, createdAt: now.addingTimeInterval(-60))
        passkeys.add(newer)
        passkeys.add(DomainFixtures.passkey(accountID: AccountID(), createdAt: now))
        passkeys.add(older)
        let listed = try await PasskeyListUseCase(passkeys: passkeys).execute(session: .signedIn(account, at: now))
        #expect(listed == [older, newer])
    }

    @Test func anAccountWithoutPasskeysListsNone() async throws {
        let listed = try await PasskeyListUseCase(passkeys: InMemoryStore())
            .execute(session: .signedIn(at: Date()))
        #expect(listed.isEmpty)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let passkeys = InMemoryStore()
        let useCase = PasskeyListUseCase(passkeys: passkeys)
        passkeys.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) {
            try await useCase.execute(session: .signedIn(at: Date()))
        }
        passkeys.failNext(.scripted("credentials"))
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("credentials"))) {
            try await useCase.execute(session: .signedIn(at: Date()))
        }
    }
}
