import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// `GET /v1/account`: the signed-in account's summary.
@Suite struct AccountQueryUseCaseTests {
    @Test func theSignedInAccountsSummaryIsReturned() async throws {
        let store = InMemoryStore()
        let account = store.addAccount(email: "yui@example.com", passwordHash: "h")
        let passkey = DomainFixtures.passkey(accountID: account.id)
        store.add(passkey)
        let summary = try await AccountQueryUseCase(accounts: store).execute(session: .signedIn(account, at: Date()))
        #expect(summary.account == account)
        #expect(summary.email.value == "yui@example.com")
        #expect(summary.hasPassword)
        #expect(summary.passkeys == [passkey])
    }

    @Test func anAccountThatIsGoneIsNotFound() async throws {
        await #expect(throws: AccountManagementError.notFound) {
            try await AccountQueryUseCase(accounts: InMemoryStore()).execute(session: .signedIn(at: Date()))
        }
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async throws {
        let store = InMemoryStore()
        let useCase = AccountQueryUseCase(accounts: store)
        store.failNext(.unavailable)
        await #expect(throws: AccountManagementError.unavailable) {
            try await useCase.execute(session: .signedIn(at: Date()))
        }
        store.failNext(.scripted("accountSummary"))
        await #expect(throws: AccountManagementError.internalFailure(cause: .scripted("accountSummary"))) {
            try await useCase.execute(session: .signedIn(at: Date()))
        }
    }
}
