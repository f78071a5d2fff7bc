import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresAccountRegistrationWriter.complete`, and the passkey sign-up's writes in one
/// transaction: a conflict rolls all of them back, the completion included.
@Suite struct AccountRegistrationWriterTests {
    typealias Fixture = AccountRegistrationRepositoryTests

    /// The finish's writes, in its order (the passkey before the email); whether it completed.
    static func create(
        _ repos: Repositories, _ registration: PasskeyAccountRegistration, email: String,
        credentialID: CredentialID = DomainFixtures.credentialID()
    ) async throws -> Bool {
        let account = DomainFixtures.account(id: registration.prospectiveAccountID, displayName: "New User")
        return try await repos.store.transaction { tx async throws(RepositoryError) in
            guard try await tx.accountRegistrations.complete(registration.id, at: Date()) else { return false }
            try await tx.accounts.insert(account)
            try await tx.passkeys.insert(DomainFixtures.passkey(id: credentialID, accountID: account.id))
            try await tx.accounts.insert(DomainFixtures.email(email, accountID: account.id))
            try await tx.sessions.insert(DomainFixtures.session(accountID: account.id, method: .passkey))
            return true
        }
    }

    @Test func completionCreatesAccountEmailPasskeyAndSessionOnce() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let r = Fixture.registration()
            try await repos.registrations.saveAccountRegistration(r)
            #expect(try await Self.create(repos, r, email: "first@example.com"))
            let summary = try #require(try await repos.accounts.accountSummary(id: r.prospectiveAccountID))
            #expect(summary.email.value == "first@example.com")
            #expect(!summary.hasPassword)
            #expect(summary.passkeys.count == 1)
            #expect(try await repos.count("SELECT count(*) FROM authentication_sessions") == 1)
            #expect(try await repos.registrations.usableAccountRegistration(id: r.id, now: Date()) == nil)
            #expect(try await Fixture.complete(repos, r) == false)
        }
    }

    @Test func anEmailConflictLeavesNothingAndTheRegistrationStaysUsable() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            _ = try await repos.passwordAccount(email: "taken@example.com")
            let r = Fixture.registration()
            try await repos.registrations.saveAccountRegistration(r)
            await #expect(throws: RepositoryError.conflict(.emailTaken)) {
                _ = try await Self.create(repos, r, email: "Taken@example.com")
            }
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 1)
            #expect(try await repos.count("SELECT count(*) FROM passkey_credentials") == 0)
            #expect(try await repos.count("SELECT count(*) FROM authentication_sessions") == 0)
            #expect(try await repos.registrations.usableAccountRegistration(id: r.id, now: Date()) != nil)
            // The client retries with another email: same registration, same device passkey.
            #expect(try await Self.create(repos, r, email: "free@example.com"))
        }
    }

    @Test func aCredentialConflictRollsBackToo() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let existing = try await repos.passwordAccount()
            let id = DomainFixtures.credentialID()
            try await repos.addPasskey(DomainFixtures.passkey(id: id, accountID: existing.id))
            let r = Fixture.registration()
            try await repos.registrations.saveAccountRegistration(r)
            await #expect(throws: RepositoryError.conflict(.credentialExists)) {
                _ = try await Self.create(repos, r, email: "new@example.com", credentialID: id)
            }
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 1)
            #expect(try await repos.registrations.usableAccountRegistration(id: r.id, now: Date()) != nil)
        }
    }

    @Test func expiredOrUnknownRegistrationsAreUnavailable() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let expired = Fixture.registration(expiresIn: -1)
            try await repos.registrations.saveAccountRegistration(expired)
            #expect(try await repos.registrations.usableAccountRegistration(id: expired.id, now: Date()) == nil)
            #expect(try await Self.create(repos, expired, email: "late@example.com") == false)
            #expect(try await Self.create(repos, Fixture.registration(), email: "ghost@example.com") == false)
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 0)
        }
    }
}
