import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresAccountWriter`, for what it stores: accounts, their address and their password.
@Suite struct AccountWriterTests {
    @Test func aTakenEmailIsAConflictAndWritesNothing() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            _ = try await repos.passwordAccount(email: "hanako@example.com")
            await #expect(throws: RepositoryError.conflict(.emailTaken)) {
                _ = try await repos.passwordAccount(email: "HANAKO@example.com")
            }
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 1)
            #expect(try await repos.count("SELECT count(*) FROM password_credentials") == 1)
        }
    }

    @Test func aMissingAccountIsNilToEveryRead() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let nobody = AccountID()
            let answers = try await repos.store.transaction { tx async throws(RepositoryError) in
                [
                    try await tx.accounts.lock(nobody), try await tx.accounts.read(nobody),
                    try await tx.accounts.lock(normalizedEmail: "nobody@example.com"),
                    try await tx.accounts.delete(nobody),
                ]
            }
            #expect(answers == [nil, nil, nil, nil])
            let found = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.accounts.find(normalizedEmail: "nobody@example.com")
            }
            #expect(found == nil)
        }
    }

    @Test func lockAndReadAnswerTheAccountItsAddressAndWhetherItHasAPassword() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = DomainFixtures.account()
            let email = AccountEmail(
                accountID: account.id, email: EmailAddress("Mika@Example.com")!, language: .japanese)
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.accounts.insert(account)
                try await tx.accounts.insert(email)
            }
            let expected = AccountSnapshot(
                account: account, email: email.email, emailVerified: false, language: .japanese, hasPassword: false)
            let (locked, read, byEmail, found) = try await repos.store.transaction { tx async throws(RepositoryError) in
                (
                    try await tx.accounts.lock(account.id), try await tx.accounts.read(account.id),
                    try await tx.accounts.lock(normalizedEmail: "mika@example.com"),
                    try await tx.accounts.find(normalizedEmail: "mika@example.com")
                )
            }
            #expect(locked == expected)
            #expect(read == expected)
            #expect(byEmail == expected)
            #expect(found == account.id)
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.accounts.setPassword(account.id, hash: Repositories.passwordHash, at: account.createdAt)
            }
            let withPassword = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.accounts.lock(account.id)
            }
            #expect(withPassword?.hasPassword == true)
        }
    }

    @Test func anAddressIsTakenOnlyByAnotherAccount() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let owner = try await repos.passwordAccount(email: "owner@example.com")
            let other = try await repos.passwordAccount()
            let address = EmailAddress("Owner@Example.com")!
            let (byOwner, byOther) = try await repos.store.transaction { tx async throws(RepositoryError) in
                (
                    try await tx.accounts.isTaken(address, byOtherThan: owner.id),
                    try await tx.accounts.isTaken(address, byOtherThan: other.id)
                )
            }
            #expect(!byOwner)
            #expect(byOther)
        }
    }

    @Test func markEmailVerifiedKeepsTheFirstDate() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let first = DomainFixtures.now()
            for date in [first, first.addingTimeInterval(60)] {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.accounts.markEmailVerified(account.id, at: date)
                }
            }
            let verifiedFirst: PostgresQuery =
                "SELECT count(*) FROM account_emails WHERE account_id = \(account.id.uuid) AND verified_at = \(first)"
            #expect(try await repos.count(verifiedFirst) == 1)
            #expect(try await repos.accounts.accountSummary(id: account.id)?.emailVerified == true)
        }
    }

    @Test func changeEmailReplacesTheAddressVerifiedOrIsAConflict() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount(email: "old@example.com")
            _ = try await repos.passwordAccount(email: "taken@example.com")
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.accounts.changeEmail(account.id, to: EmailAddress("New@Example.com")!, verifiedAt: Date())
            }
            let summary = try #require(try await repos.accounts.accountSummary(id: account.id))
            #expect(summary.email.value == "New@Example.com")
            #expect(summary.emailVerified)
            #expect(try await repos.accounts.passwordAccount(normalizedEmail: "new@example.com")?.account == account)
            #expect(try await repos.accounts.passwordAccount(normalizedEmail: "old@example.com") == nil)
            await #expect(throws: RepositoryError.conflict(.emailTaken)) {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.accounts.changeEmail(
                        account.id, to: EmailAddress("TAKEN@example.com")!, verifiedAt: Date())
                }
            }
            #expect(try await repos.accounts.accountSummary(id: account.id)?.email.value == "New@Example.com")
        }
    }

    @Test func setPasswordInsertsOrReplacesAndDeletePasswordRemovesItOnce() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = DomainFixtures.account()
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.accounts.insert(account)
                try await tx.accounts.insert(DomainFixtures.email("pw@example.com", accountID: account.id))
            }
            #expect(try await repos.accounts.passwordAccount(normalizedEmail: "pw@example.com") == nil)
            let set = DomainFixtures.now()
            for (hash, date) in [("$2b$12$first", set), ("$argon2id$second", set.addingTimeInterval(60))] {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.accounts.setPassword(account.id, hash: hash, at: date)
                }
            }
            let credential = try #require(
                try await repos.accounts.passwordAccount(normalizedEmail: "pw@example.com")?.credential)
            #expect(credential.passwordHash == "$argon2id$second")
            #expect(credential.createdAt == set)
            #expect(credential.updatedAt == set.addingTimeInterval(60))
            let deletions = try await repos.store.transaction { tx async throws(RepositoryError) in
                [try await tx.accounts.deletePassword(account.id), try await tx.accounts.deletePassword(account.id)]
            }
            #expect(deletions == [true, false])
            #expect(try await repos.accounts.accountSummary(id: account.id)?.hasPassword == false)
        }
    }
}

/// `delete`: the account and everything it owns, in one statement sequence; what it was is answered.
extension AccountWriterTests {
    /// The rows that reference `id` in every table with an `account_id`.
    static func ownedRows(_ repos: Repositories, of id: AccountID) async throws -> Int {
        try await repos.count(
            """
            SELECT (SELECT count(*) FROM account_emails WHERE account_id = \(id.uuid))
                 + (SELECT count(*) FROM password_credentials WHERE account_id = \(id.uuid))
                 + (SELECT count(*) FROM passkey_credentials WHERE account_id = \(id.uuid))
                 + (SELECT count(*) FROM authentication_sessions WHERE account_id = \(id.uuid))
                 + (SELECT count(*) FROM recovery_codes WHERE account_id = \(id.uuid))
                 + (SELECT count(*) FROM email_codes WHERE account_id = \(id.uuid))
                 + (SELECT count(*) FROM account_events WHERE account_id = \(id.uuid))
                 + (SELECT count(*) FROM passkey_registration_challenges WHERE account_id = \(id.uuid))
                 + (SELECT count(*) FROM passkey_account_registrations WHERE prospective_account_id = \(id.uuid))
                 + (SELECT count(*) FROM accounts WHERE id = \(id.uuid)) AS count
            """)
    }

    /// One row of everything an account can own, and an attempt counted against its address.
    static func giveEverything(to account: Account, email: String, _ repos: Repositories) async throws {
        let now = DomainFixtures.now()
        let registration = PasskeyAccountRegistration(
            prospectiveAccountID: account.id, email: nil, displayName: nil, challenge: DomainFixtures.challenge(),
            expiresAt: now.addingTimeInterval(300))
        try await repos.registrations.saveAccountRegistration(registration)
        try await repos.passkeyRegistrations.saveRegistrationChallenge(
            PasskeyRegistrationChallenge(
                accountID: account.id, challenge: DomainFixtures.challenge(), mode: .modal,
                expiresAt: now.addingTimeInterval(300)))
        _ = try await repos.rateLimits.beginAttempt(
            normalizedEmail: email, clientAddress: "192.0.2.1",
            limits: AttemptLimits(perEmail: 10, perAddress: 10, window: 900))
        try await repos.store.transaction { tx async throws(RepositoryError) in
            #expect(try await tx.accountRegistrations.complete(registration.id, at: now))
            try await tx.passkeys.insert(DomainFixtures.passkey(accountID: account.id))
            try await tx.sessions.insert(DomainFixtures.session(accountID: account.id))
            try await tx.recoveryCodes.insert([
                StoredRecoveryCode(
                    id: UUID(), accountID: account.id, digest: (0..<32).map { _ in UInt8.random(in: 0...255) },
                    source: .user, createdAt: now, expiresAt: nil)
            ])
            try await tx.emailCodes.insert(
                EmailCodeDraft(
                    id: UUID(), purpose: .verify, digest: Array(repeating: 3, count: 32), createdAt: now,
                    expiresAt: now.addingTimeInterval(600)),
                of: account.id, sentTo: EmailAddress(email)!)
            try await tx.outbox.enqueue(
                OutgoingMail(id: UUID(), recipient: EmailAddress(email)!, subject: "code", body: "1\n", createdAt: now))
            try await tx.events.record(
                AccountEvent(
                    id: AccountEventID(), accountID: account.id, activity: .passwordSet, occurredAt: now,
                    clientAddress: "192.0.2.1", userAgent: nil, sessionID: nil))
        }
    }

    /// Writes for an account whose deletion committed first answer `.accountGone`, whichever
    /// table they go to (the address copies the account's row; the others are foreign keys).
    @Test func writesForADeletedAccountAnswerAccountGone() async throws {
        try await withTestDatabase { _, pool async throws in
            let repos = Repositories(pool: pool)
            let missing = DomainFixtures.account()
            let now = DomainFixtures.now()
            await #expect(throws: RepositoryError.accountGone) {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.accounts.insert(DomainFixtures.email(accountID: missing.id))
                }
            }
            await #expect(throws: RepositoryError.accountGone) {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.events.record(
                        AccountEvent(
                            id: AccountEventID(), accountID: missing.id, activity: .passwordSet, occurredAt: now,
                            clientAddress: "192.0.2.1", userAgent: nil, sessionID: nil))
                }
            }
            await #expect(throws: RepositoryError.accountGone) {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.emailCodes.insert(
                        EmailCodeDraft(
                            id: UUID(), purpose: .signIn, digest: Array(repeating: 3, count: 32), createdAt: now,
                            expiresAt: now.addingTimeInterval(600)),
                        of: missing.id, sentTo: EmailAddress("gone@example.com")!)
                }
            }
            #expect(try await repos.count("SELECT count(*) FROM account_emails") == 0)
        }
    }

    @Test func deleteCascadesToEverythingTheAccountOwnsAndAnswersWhatItWas() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount(email: "gone@example.com")
            let bystander = try await repos.passwordAccount(email: "stays@example.com")
            try await Self.giveEverything(to: account, email: "gone@example.com", repos)
            try await Self.giveEverything(to: bystander, email: "stays@example.com", repos)
            let before = try await Self.ownedRows(repos, of: bystander.id)
            #expect(try await Self.ownedRows(repos, of: account.id) == before)

            let deleted = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.accounts.delete(account.id)
            }
            #expect(
                deleted
                    == AccountSnapshot(
                        account: account, email: EmailAddress("gone@example.com")!, emailVerified: false,
                        language: .english, hasPassword: true))
            #expect(try await Self.ownedRows(repos, of: account.id) == 0)
            #expect(try await Self.ownedRows(repos, of: bystander.id) == before)
            // The attempts counted against the address go too; the outbox (no foreign key) keeps its mail.
            #expect(
                try await repos.count(
                    "SELECT count(*) FROM password_failures WHERE normalized_email = 'gone@example.com'")
                    == 0)
            #expect(try await repos.count("SELECT count(*) FROM password_failures") == 1)
            #expect(try await repos.count("SELECT count(*) FROM mail_outbox") == 2)

            let again = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.accounts.delete(account.id)
            }
            #expect(again == nil)
            // The address is free again.
            _ = try await repos.passwordAccount(email: "gone@example.com")
        }
    }
}
