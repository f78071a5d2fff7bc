import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// `DELETE /v1/account`: a recent sign-in, then the account and everything it owns go.
@Suite struct AccountDeletionUseCaseTests {
    private struct Fixture {
        let accounts = InMemoryAccountRepository()
        let clock = FixedClock()
        let account = DomainFixtures.account()
        var useCase: AccountDeletionUseCase {
            AccountDeletionUseCase(accounts: accounts, policy: PasskeyPolicy(reauthenticationWindow: 600), clock: clock)
        }

        init() async throws {
            try await accounts.createPasswordAccount(
                account, email: DomainFixtures.email("sora@example.com", accountID: account.id),
                password: PasswordCredential(
                    accountID: account.id, passwordHash: "h", createdAt: clock.now, updatedAt: clock.now))
        }

        func session(age: TimeInterval = 0) -> ActiveSession {
            .signedIn(account, at: clock.now.addingTimeInterval(-age))
        }
    }

    @Test func theAccountIsDeletedAndItsEmailIsFreeAgain() async throws {
        let f = try await Fixture()
        try await f.useCase.execute(session: f.session(age: 600))
        #expect(try await f.accounts.accountSummary(id: f.account.id) == nil)
        let again = DomainFixtures.account()
        try await f.accounts.createPasswordAccount(
            again, email: DomainFixtures.email("sora@example.com", accountID: again.id),
            password: PasswordCredential(accountID: again.id, passwordHash: "h", createdAt: Date(), updatedAt: Date()))
    }

    @Test func anAccountDeletedAlreadyIsNotFound() async throws {
        let f = try await Fixture()
        try await f.useCase.execute(session: f.session())
        await #expect(throws: AccountManagementError.notFound) { try await f.useCase.execute(session: f.session()) }
    }

    @Test func anOldSessionIsRefusedBeforeTheRepositoryIsAskedAndTheAccountStays() async throws {
        let f = try await Fixture()
        await #expect(throws: AccountManagementError.reauthenticationRequired) {
            try await f.useCase.execute(session: f.session(age: 601))
        }
        #expect(try await f.accounts.accountSummary(id: f.account.id) != nil)
        f.accounts.failNext(.unavailable)  // would surface had the repository been asked
        await #expect(throws: AccountManagementError.reauthenticationRequired) {
            try await f.useCase.execute(session: f.session(age: 601))
        }
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let f = try await Fixture()
        f.accounts.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) { try await f.useCase.execute(session: f.session()) }
        f.accounts.failNext(.scripted("deleteAccount"))
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("deleteAccount"))) {
            try await f.useCase.execute(session: f.session())
        }
        #expect(try await f.accounts.accountSummary(id: f.account.id) != nil)
    }
}
