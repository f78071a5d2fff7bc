import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Stage ③'s password removal, branch by branch on in-memory ports: recent sign-in first, then
/// the contract's order (no password, passkey not yet used, recovery not set up).
@Suite struct PasswordRemovalUseCaseTests {
    private static func setUp() async throws -> (InMemoryAccountRepository, FixedClock, ActiveSession) {
        let accounts = InMemoryAccountRepository()
        let clock = FixedClock()
        let account = DomainFixtures.account()
        try await accounts.createPasswordAccount(
            account, email: DomainFixtures.email(accountID: account.id),
            password: PasswordCredential(accountID: account.id, passwordHash: "h", createdAt: Date(), updatedAt: Date())
        )
        let session = ActiveSession(
            session: DomainFixtures.session(accountID: account.id, createdAt: clock.now), account: account)
        return (accounts, clock, session)
    }

    private static func outcome(_ useCase: PasswordRemovalUseCase, _ session: ActiveSession) async
        -> AccountManagementError?
    {
        do {
            try await useCase.execute(session: session)
            return nil
        } catch {
            return error
        }
    }

    @Test func theChecksComeInTheContractsOrder() async throws {
        let (accounts, clock, session) = try await Self.setUp()
        let useCase = PasswordRemovalUseCase(
            accounts: accounts, policy: PasskeyPolicy(reauthenticationWindow: 600), clock: clock)
        accounts.setRemovalPreconditions(passkeyUsed: false, recoverySetUp: false)
        #expect(await Self.outcome(useCase, session) == .passkeyNotYetUsed)
        accounts.setRemovalPreconditions(passkeyUsed: true, recoverySetUp: false)
        #expect(await Self.outcome(useCase, session) == .recoveryNotSetUp)
        accounts.setRemovalPreconditions(passkeyUsed: true, recoverySetUp: true)
        #expect(await Self.outcome(useCase, session) == nil)
        #expect(await Self.outcome(useCase, session) == .notFound)
    }

    @Test func anOldSessionIsRefusedBeforeAnythingElse() async throws {
        let (accounts, clock, session) = try await Self.setUp()
        let useCase = PasswordRemovalUseCase(
            accounts: accounts, policy: PasskeyPolicy(reauthenticationWindow: 600), clock: clock)
        clock.advance(by: 600)
        accounts.setRemovalPreconditions(passkeyUsed: false, recoverySetUp: false)
        #expect(await Self.outcome(useCase, session) == .passkeyNotYetUsed)
        clock.advance(by: 1)
        #expect(await Self.outcome(useCase, session) == .reauthenticationRequired)
        accounts.failNext(.unavailable)
        #expect(await Self.outcome(useCase, session) == .reauthenticationRequired)
    }

    @Test func repositoryErrorsAreUnavailableOrInternal() async throws {
        let (accounts, clock, session) = try await Self.setUp()
        let useCase = PasswordRemovalUseCase(accounts: accounts, policy: PasskeyPolicy(), clock: clock)
        accounts.failNext(.unavailable)
        #expect(await Self.outcome(useCase, session) == .unavailable)
        accounts.failNext(.scripted("boom"))
        #expect(await Self.outcome(useCase, session) == .internalFailure(cause: .scripted("boom")))
    }
}
