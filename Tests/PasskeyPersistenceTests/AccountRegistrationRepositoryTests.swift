import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

@Suite struct AccountRegistrationRepositoryTests {
    func registration(email: String? = nil, expiresIn: TimeInterval = 300) -> PasskeyAccountRegistration {
        PasskeyAccountRegistration(
            prospectiveAccountID: AccountID(), email: email.flatMap(EmailAddress.init),
            displayName: email == nil ? nil : DisplayName("New User"), challenge: DomainFixtures.challenge(),
            expiresAt: Date().addingTimeInterval(expiresIn))
    }

    func complete(
        _ repos: Repositories, _ registration: PasskeyAccountRegistration, email: String,
        credentialID: CredentialID = DomainFixtures.credentialID()
    ) async throws -> AccountRegistrationCompletion {
        let account = DomainFixtures.account(id: registration.prospectiveAccountID, displayName: "New User")
        return try await repos.registrations.completeAccountRegistration(
            id: registration.id, account: account, email: DomainFixtures.email(email, accountID: account.id),
            credential: DomainFixtures.passkey(id: credentialID, accountID: account.id),
            session: DomainFixtures.session(accountID: account.id, method: .passkey), now: Date())
    }

    @Test func startRecordsWhatTheFormGaveAndTheSheetDidNot() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let form = registration(email: "Form@Example.com")
            let sheet = registration()
            try await repos.registrations.saveAccountRegistration(form)
            try await repos.registrations.saveAccountRegistration(sheet)
            let storedForm = try await repos.registrations.usableAccountRegistration(id: form.id, now: Date())
            #expect(storedForm?.email?.value == "Form@Example.com")
            #expect(storedForm?.displayName?.value == "New User")
            #expect(storedForm?.prospectiveAccountID == form.prospectiveAccountID)
            let storedSheet = try await repos.registrations.usableAccountRegistration(id: sheet.id, now: Date())
            #expect(storedSheet?.email == nil)
            #expect(storedSheet?.challenge == sheet.challenge)
        }
    }

    @Test func completionCreatesAccountEmailPasskeyAndSessionOnce() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let r = registration()
            try await repos.registrations.saveAccountRegistration(r)
            #expect(try await complete(repos, r, email: "first@example.com") == .completed)
            let summary = try #require(try await repos.accounts.accountSummary(id: r.prospectiveAccountID))
            #expect(summary.email.value == "first@example.com")
            #expect(!summary.hasPassword)
            #expect(summary.passkeys.count == 1)
            #expect(try await repos.count("SELECT count(*) FROM authentication_sessions") == 1)
            #expect(try await repos.registrations.usableAccountRegistration(id: r.id, now: Date()) == nil)
            #expect(try await complete(repos, r, email: "again@example.com") == .unavailable)
        }
    }

    @Test func anEmailConflictLeavesNothingAndTheRegistrationStaysUsable() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            _ = try await repos.passwordAccount(email: "taken@example.com")
            let r = registration()
            try await repos.registrations.saveAccountRegistration(r)
            await #expect(throws: RepositoryError.conflict(.emailTaken)) {
                _ = try await complete(repos, r, email: "Taken@example.com")
            }
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 1)
            #expect(try await repos.count("SELECT count(*) FROM passkey_credentials") == 0)
            #expect(try await repos.count("SELECT count(*) FROM authentication_sessions") == 0)
            #expect(try await repos.registrations.usableAccountRegistration(id: r.id, now: Date()) != nil)
            // The client retries with another email: same registration, same device passkey.
            #expect(try await complete(repos, r, email: "free@example.com") == .completed)
        }
    }

    @Test func aCredentialConflictRollsBackToo() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let existing = try await repos.passwordAccount()
            let id = DomainFixtures.credentialID()
            try await repos.passkeyRegistrations.addCredential(
                DomainFixtures.passkey(id: id, accountID: existing.id), limit: 50)
            let r = registration()
            try await repos.registrations.saveAccountRegistration(r)
            await #expect(throws: RepositoryError.conflict(.credentialExists)) {
                _ = try await complete(repos, r, email: "new@example.com", credentialID: id)
            }
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 1)
            #expect(try await repos.registrations.usableAccountRegistration(id: r.id, now: Date()) != nil)
        }
    }

    @Test func expiredOrUnknownRegistrationsAreUnavailable() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let expired = registration(expiresIn: -1)
            try await repos.registrations.saveAccountRegistration(expired)
            #expect(try await repos.registrations.usableAccountRegistration(id: expired.id, now: Date()) == nil)
            #expect(try await complete(repos, expired, email: "late@example.com") == .unavailable)
            #expect(try await complete(repos, registration(), email: "ghost@example.com") == .unavailable)
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 0)
        }
    }

    @Test func concurrentCompletionsOfOneRegistrationHaveOneWinner() async throws {
        try await withTestDatabase(maximumConnections: 16) { _, pool in
            let repos = Repositories(pool: pool)
            let r = registration()
            try await repos.registrations.saveAccountRegistration(r)
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for i in 0..<16 {
                    group.addTask {
                        do {
                            return try await complete(repos, r, email: "racer\(i)@example.com") == .completed
                        } catch RepositoryError.conflict {
                            return false
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(outcomes == 1)
            #expect(try await repos.count("SELECT count(*) FROM accounts") == 1)
        }
    }
}

/// Contract v3: at most five failing finishes, counted in the database under concurrency; a
/// registered credential is reported before a taken email.
extension AccountRegistrationRepositoryTests {
    @Test func ofConcurrentFailuresAtMostFiveAreCountedAndTheRegistrationIsThenUsedUp() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let r = registration()
            try await repos.registrations.saveAccountRegistration(r)
            try await openConnections(8, of: pool)
            let counted = try await race(20) { try await repos.registrations.recordFailedFinish(id: r.id, now: Date()) }
            #expect(counted == PasskeyAccountRegistration.maximumFailedFinishes)
            #expect(try await repos.registrations.usableAccountRegistration(id: r.id, now: Date()) == nil)
            #expect(try await repos.registrations.recordFailedFinish(id: r.id, now: Date()) == false)
            #expect(try await completeFresh(repos, r) == .unavailable)
        }
    }

    @Test func fourFailuresLeaveTheRegistrationUsable() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let r = registration()
            try await repos.registrations.saveAccountRegistration(r)
            for _ in 1..<PasskeyAccountRegistration.maximumFailedFinishes {
                #expect(try await repos.registrations.recordFailedFinish(id: r.id, now: Date()))
            }
            #expect(try await repos.registrations.usableAccountRegistration(id: r.id, now: Date()) != nil)
            #expect(try await completeFresh(repos, r) == .completed)
            #expect(try await repos.registrations.recordFailedFinish(id: r.id, now: Date()) == false)
        }
    }

    @Test func aRegisteredCredentialIsReportedBeforeATakenEmail() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let first = registration()
            try await repos.registrations.saveAccountRegistration(first)
            let credentialID = DomainFixtures.credentialID()
            #expect(
                try await complete(repos, first, email: "taken@example.com", credentialID: credentialID) == .completed)
            let second = registration()
            try await repos.registrations.saveAccountRegistration(second)
            await #expect(throws: RepositoryError.conflict(.credentialExists)) {
                try await complete(repos, second, email: "taken@example.com", credentialID: credentialID)
            }
            await #expect(throws: RepositoryError.conflict(.emailTaken)) {
                try await complete(repos, second, email: "taken@example.com")
            }
        }
    }

    private func completeFresh(_ repos: Repositories, _ r: PasskeyAccountRegistration) async throws
        -> AccountRegistrationCompletion
    {
        try await complete(repos, r, email: "user-\(UUID().uuidString.prefix(8))@example.com")
    }
}
