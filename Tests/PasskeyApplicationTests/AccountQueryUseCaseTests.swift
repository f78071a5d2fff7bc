import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// `GET /v1/account`: the signed-in account's summary.
@Suite struct AccountQueryUseCaseTests {
    @Test func theSignedInAccountsSummaryIsReturned() async throws {
        let accounts = InMemoryAccountRepository()
        let account = DomainFixtures.account()
        try await accounts.createPasswordAccount(
            account, email: DomainFixtures.email("yui@example.com", accountID: account.id),
            password: PasswordCredential(accountID: account.id, passwordHash: "h", createdAt: Date(), updatedAt: Date())
        )
        let passkey = DomainFixtures.passkey(accountID: account.id)
        accounts.setPasskeys([passkey], for: account.id)
        let summary = try await AccountQueryUseCase(accounts: accounts).execute(session: .signedIn(account, at: Date()))
        #expect(summary.account == account)
        #expect(summary.email.value == "yui@example.com")
        #expect(summary.hasPassword)
        #expect(summary.passkeys == [passkey])
    }

    @Test func anAccountThatIsGoneIsNotFound() async throws {
        await #expect(throws: AccountManagementError.notFound) {
            try await AccountQueryUseCase(accounts: InMemoryAccountRepository()).execute(session: .signedIn(at: Date()))
        }
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let accounts = InMemoryAccountRepository()
        let useCase = AccountQueryUseCase(accounts: accounts)
        accounts.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) {
            try await useCase.execute(session: .signedIn(at: Date()))
        }
        accounts.failNext(.scripted("accountSummary"))
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("accountSummary"))) {
            try await useCase.execute(session: .signedIn(at: Date()))
        }
    }
}
