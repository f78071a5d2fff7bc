import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Stage ③'s password removal, branch by branch on in-memory ports (with the `RecentSession` the
/// route kind proved), in the contract's order (no password, passkey not yet used, recovery not set up).
@Suite struct PasswordRemovalUseCaseTests {
    private static func setUp() async throws -> (InMemoryAccountRepository, RecentSession) {
        let accounts = InMemoryAccountRepository()
        let account = DomainFixtures.account()
        try await accounts.createPasswordAccount(
            account, email: DomainFixtures.email(accountID: account.id),
            password: PasswordCredential(accountID: account.id, passwordHash: "h", createdAt: Date(), updatedAt: Date())
        )
        return (accounts, .signedIn(account))
    }

    private static func outcome(_ useCase: PasswordRemovalUseCase, _ session: RecentSession) async
        -> AccountManagementError?
    {
        do {
            try await useCase.execute(session: session, origin: .example)
            return nil
        } catch {
            return error
        }
    }

    @Test func theChecksComeInTheContractsOrder() async throws {
        let (accounts, session) = try await Self.setUp()
        let useCase = PasswordRemovalUseCase(accounts: accounts, clock: FixedClock())
        accounts.setRemovalPreconditions(passkeyUsed: false, recoverySetUp: false)
        #expect(await Self.outcome(useCase, session) == .passkeyNotYetUsed)
        accounts.setRemovalPreconditions(passkeyUsed: true, recoverySetUp: false)
        #expect(await Self.outcome(useCase, session) == .recoveryNotSetUp)
        accounts.setRemovalPreconditions(passkeyUsed: true, recoverySetUp: true)
        #expect(await Self.outcome(useCase, session) == nil)
        #expect(await Self.outcome(useCase, session) == .notFound)
    }

    @Test func repositoryErrorsAreUnavailableOrInternal() async throws {
        let (accounts, session) = try await Self.setUp()
        let useCase = PasswordRemovalUseCase(accounts: accounts, clock: FixedClock())
        accounts.failNext(.unavailable)
        #expect(await Self.outcome(useCase, session) == .unavailable)
        accounts.failNext(.scripted("boom"))
        #expect(await Self.outcome(useCase, session) == .internalFailure(cause: .scripted("boom")))
    }
}
