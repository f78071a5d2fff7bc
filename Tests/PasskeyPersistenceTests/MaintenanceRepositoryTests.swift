import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

@Suite struct MaintenanceRepositoryTests {
    @Test func sweepDeletesOnlyExpiredRowsInBatches() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let past = Date().addingTimeInterval(-10)
            let future = Date().addingTimeInterval(300)
            for i in 0..<7 {
                try await repos.passkeyAuthentications.saveAuthenticationChallenge(
                    PasskeyAuthenticationChallenge(
                        challenge: DomainFixtures.challenge(), expiresAt: i < 5 ? past : future))
                try await repos.passkeyRegistrations.saveRegistrationChallenge(
                    PasskeyRegistrationChallenge(
                        accountID: account.id, challenge: DomainFixtures.challenge(), mode: .modal,
                        expiresAt: i < 5 ? past : future))
                try await repos.registrations.saveAccountRegistration(
                    PasskeyAccountRegistration(
                        prospectiveAccountID: AccountID(), email: nil, displayName: nil,
                        challenge: DomainFixtures.challenge(), expiresAt: i < 5 ? past : future))
            }
            try await repos.sessions.createSession(
                DomainFixtures.session(accountID: account.id, createdAt: past.addingTimeInterval(-60), lifetime: 30))
            try await repos.sessions.createSession(DomainFixtures.session(accountID: account.id))

            let runner = MigrationRunner(migrations: try Migration.load(from: PackagePaths.migrations))
            let maintenance = PostgresMaintenanceRepository(pool: pool, migrations: runner)
            #expect(try await maintenance.sweepExpired(batchSize: 2) == 5 * 3 + 1)
            #expect(try await repos.count("SELECT count(*) FROM passkey_authentication_challenges") == 2)
            #expect(try await repos.count("SELECT count(*) FROM passkey_registration_challenges") == 2)
            #expect(try await repos.count("SELECT count(*) FROM passkey_account_registrations") == 2)
            #expect(try await repos.count("SELECT count(*) FROM authentication_sessions") == 1)
            #expect(try await maintenance.sweepExpired(batchSize: 2) == 0)
            #expect(await maintenance.isReady())
        }
    }
}
