import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// Stage ③'s password removal, branch by branch on the in-memory store (with the `RecentSession`
/// the route kind proved), in the contract's order: no password, passkey not yet used, recovery
/// not set up. The rule is the use case's; the store only holds rows.
@Suite struct PasswordRemovalUseCaseTests {
    private struct Fixture {
        let store = InMemoryStore()
        let clock = FixedClock()
        let account: Account
        let session: RecentSession

        init(password: Bool = true, verified: Bool = false) {
            account = store.addAccount(verified: verified, passwordHash: password ? "h" : nil)
            session = .signedIn(account)
            store.add(session.session)
        }

        func useCase(mail: MailPolicy = .off) -> PasswordRemovalUseCase {
            PasswordRemovalUseCase(store: store, clock: clock, mail: mail)
        }

        func addPasskey(used: Bool) {
            store.add(DomainFixtures.passkey(accountID: account.id, lastUsedAt: used ? clock.now : nil))
        }

        func addUserRecoveryCode(used: Bool = false, source: RecoveryCodeSource = .user) {
            store.add(
                StoredRecoveryCode(
                    id: UUID(), accountID: account.id, digest: [UInt8](repeating: 1, count: 32), source: source,
                    createdAt: clock.now, expiresAt: nil),
                usedAt: used ? clock.now : nil)
        }

        func outcome(_ useCase: PasswordRemovalUseCase) async -> AccountManagementError? {
            do {
                try await useCase.execute(session: session, origin: .example)
                return nil
            } catch {
                return error
            }
        }
    }

    @Test func theChecksComeInTheContractsOrder() async throws {
        let f = Fixture()
        let useCase = f.useCase()
        #expect(await f.outcome(useCase) == .passkeyNotYetUsed)
        f.addPasskey(used: false)
        #expect(await f.outcome(useCase) == .passkeyNotYetUsed)
        f.addPasskey(used: true)
        #expect(await f.outcome(useCase) == .recoveryNotSetUp)
        f.addUserRecoveryCode()
        #expect(await f.outcome(useCase) == nil)
        #expect(await f.outcome(useCase) == .notFound)
        #expect(f.store.tables.passwords.isEmpty)
        #expect(f.store.events.map(\.activity) == [.passwordRemoved])
    }

    @Test func usedUserCodesAndOperatorCodesAreNotRecoverySetUp() async throws {
        let f = Fixture()
        f.addPasskey(used: true)
        f.addUserRecoveryCode(used: true)
        f.addUserRecoveryCode(source: .operator)
        #expect(await f.outcome(f.useCase()) == .recoveryNotSetUp)
        #expect(f.store.tables.passwords[f.account.id] != nil)
    }

    @Test func aVerifiedAddressIsRecoverySetUpOnlyWhileMailIsOn() async throws {
        let f = Fixture(verified: true)
        f.addPasskey(used: true)
        #expect(await f.outcome(f.useCase(mail: .off)) == .recoveryNotSetUp)
        #expect(await f.outcome(f.useCase(mail: MailPolicy(enabled: true))) == nil)
    }

    @Test func otherPasswordSessionsEndWithThePasswordButTheCallersAndPasskeySessionsStay() async throws {
        let f = Fixture()
        f.addPasskey(used: true)
        f.addUserRecoveryCode()
        let otherPassword = f.store.signIn(f.account, at: f.clock.now)
        let passkey = f.store.signIn(f.account, method: .passkey, at: f.clock.now)
        #expect(await f.outcome(f.useCase()) == nil)
        let sessions = f.store.tables.sessions
        #expect(sessions[otherPassword.id]?.revokedAt == f.clock.now)
        #expect(sessions[passkey.id]?.revokedAt == nil)
        #expect(sessions[f.session.session.id]?.revokedAt == nil)
    }

    @Test func aRefusedRemovalChangesNothing() async throws {
        let f = Fixture()
        let other = f.store.signIn(f.account, at: f.clock.now)
        #expect(await f.outcome(f.useCase()) == .passkeyNotYetUsed)
        #expect(f.store.tables.passwords[f.account.id] != nil)
        #expect(f.store.tables.sessions[other.id]?.revokedAt == nil)
        #expect(f.store.events.isEmpty)
    }

    @Test func repositoryErrorsAreUnavailableOrInternalAndRollBack() async throws {
        let f = Fixture()
        f.addPasskey(used: true)
        f.addUserRecoveryCode()
        f.store.failNext(.unavailable)
        #expect(await f.outcome(f.useCase()) == .unavailable)
        // After the password's delete: the session revocation fails, and the delete rolls back.
        f.store.failNext(.scripted("boom"), afterCalls: 4)
        #expect(await f.outcome(f.useCase()) == .internalFailure(cause: .scripted("boom")))
        #expect(f.store.tables.passwords[f.account.id] != nil)
        #expect(f.store.events.isEmpty)
    }
}
