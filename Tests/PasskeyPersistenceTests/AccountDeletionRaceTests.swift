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
/// has just read, then writes.
@Suite struct AccountDeletionRaceTests {
    private func deletedAccount(_ repos: Repositories) async throws -> Account {
        let account = try await repos.passwordAccount()
        #expect(try await repos.accounts.deleteAccount(id: account.id))
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
                try await repos.passkeyRegistrations.addCredential(
                    DomainFixtures.passkey(accountID: account.id), limit: 50)
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
