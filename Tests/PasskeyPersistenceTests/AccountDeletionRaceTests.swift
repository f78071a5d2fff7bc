import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// Contract v3, "Races with deletion": a write that references an account deleted since the use
/// case read it reports `.accountGone` (never a failure that answers 500). The deletion is made
/// to land deterministically between the read and the write: the test deletes the account it
/// has just read (with `AccountDeletionUseCase` over the store), then writes.
@Suite struct AccountDeletionRaceTests {
    private func deletedAccount(_ repos: Repositories) async throws -> Account {
        let account = try await repos.passwordAccount()
        let clock = SystemClock()
        let session = try RecentSignInRequirement(policy: PasskeyPolicy(), clock: clock).check(
            try await repos.signedIn(account))
        let deletion = try await AccountDeletionUseCase(store: repos.store, clock: clock).execute(
            session: session, origin: .example)
        #expect(deletion.accountID == account.id)
        #expect(try await repos.accounts.accountSummary(id: account.id) == nil)
        return account
    }

    @Test(arguments: [AuthenticationMethod.password, .passkey, .recovery])
    func aSessionForADeletedAccountIsAccountGone(method: AuthenticationMethod) async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await deletedAccount(repos)
            await #expect(throws: RepositoryError.accountGone) {
                try await repos.sessions.createSession(DomainFixtures.session(accountID: account.id, method: method))
            }
        }
    }

    @Test func aPasskeyForADeletedAccountIsAccountGone() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await deletedAccount(repos)
            await #expect(throws: RepositoryError.accountGone) {
                try await repos.addPasskey(DomainFixtures.passkey(accountID: account.id))
            }
        }
    }

    /// The writers' inserts of rows an account owns, for an account deleted meanwhile.
    @Test(arguments: ["session", "password", "recovery code"])
    func aWriterInsertForADeletedAccountIsAccountGone(row: String) async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await deletedAccount(repos)
            await #expect(throws: RepositoryError.accountGone) {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    switch row {
                    case "session": try await tx.sessions.insert(DomainFixtures.session(accountID: account.id))
                    case "password":
                        try await tx.accounts.setPassword(account.id, hash: Repositories.passwordHash, at: Date())
                    default:
                        try await tx.recoveryCodes.insert([
                            StoredRecoveryCode(
                                id: UUID(), accountID: account.id, digest: Array(repeating: 9, count: 32),
                                source: .user, createdAt: Date(), expiresAt: nil)
                        ])
                    }
                }
            }
        }
    }

    @Test func aRegistrationChallengeForADeletedAccountIsAccountGone() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await deletedAccount(repos)
            let challenge = PasskeyRegistrationChallenge(
                accountID: account.id, challenge: DomainFixtures.challenge(), mode: .modal,
                expiresAt: Date().addingTimeInterval(300))
            await #expect(throws: RepositoryError.accountGone) {
                try await repos.passkeyRegistrations.saveRegistrationChallenge(challenge)
            }
        }
    }

    @Test func otherForeignKeyViolationsStayFailures() {
        let error = PostgresError(
            kind: .statement, sqlState: "23503", constraint: "some_other_fkey", diagnostic: "violates foreign key")
        #expect(error.repositoryError(operation: "x") == .conflict(.other("some_other_fkey")))
        let gone = PostgresError(
            kind: .statement, sqlState: "23503", constraint: "authentication_sessions_account_id_fkey",
            diagnostic: "violates foreign key")
        #expect(gone.repositoryError(operation: "x") == .accountGone)
    }
}
