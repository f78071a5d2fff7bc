import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// `DELETE /v1/account`: the account and everything it owns go (the recent sign-in it takes is
/// `RecentSignInRequirementTests`').
@Suite struct AccountDeletionUseCaseTests {
    private struct Fixture {
        let accounts = InMemoryAccountRepository()
        let clock = FixedClock()
        let account = DomainFixtures.account()
        var useCase: AccountDeletionUseCase {
            AccountDeletionUseCase(accounts: accounts, clock: FixedClock())
        }

        init() async throws {
            try await accounts.createPasswordAccount(
                account, email: DomainFixtures.email("sora@example.com", accountID: account.id),
                password: PasswordCredential(
                    accountID: account.id, passwordHash: "h", createdAt: clock.now, updatedAt: clock.now))
        }

        func session() -> RecentSession { .signedIn(account) }
    }

    @Test func theAccountIsDeletedAndItsEmailIsFreeAgain() async throws {
        let f = try await Fixture()
        try await f.useCase.execute(session: f.session(), origin: .example)
        #expect(try await f.accounts.accountSummary(id: f.account.id) == nil)
        let again = DomainFixtures.account()
        try await f.accounts.createPasswordAccount(
            again, email: DomainFixtures.email("sora@example.com", accountID: again.id),
            password: PasswordCredential(accountID: again.id, passwordHash: "h", createdAt: Date(), updatedAt: Date()))
    }

    @Test func anAccountDeletedAlreadyIsNotFound() async throws {
        let f = try await Fixture()
        try await f.useCase.execute(session: f.session(), origin: .example)
        await #expect(throws: AccountManagementError.notFound) {
            try await f.useCase.execute(session: f.session(), origin: .example)
        }
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let f = try await Fixture()
        f.accounts.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) {
            try await f.useCase.execute(session: f.session(), origin: .example)
        }
        f.accounts.failNext(.scripted("deleteAccount"))
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("deleteAccount"))) {
            try await f.useCase.execute(session: f.session(), origin: .example)
        }
        #expect(try await f.accounts.accountSummary(id: f.account.id) != nil)
    }
}
