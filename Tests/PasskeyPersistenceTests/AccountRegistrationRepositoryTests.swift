import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresAccountRegistrationRepository`: what start records, and the failing finishes counted
/// under concurrency. The completion is `AccountRegistrationWriterTests`'s, and with the use
/// case `PasskeyAccountRegistrationFinishUseCaseTests`'.
@Suite struct AccountRegistrationRepositoryTests {
    static func registration(email: String? = nil, expiresIn: TimeInterval = 300) -> PasskeyAccountRegistration {
        PasskeyAccountRegistration(
            prospectiveAccountID: AccountID(), email: email.flatMap(EmailAddress.init),
            displayName: email == nil ? nil : DisplayName("New User"), challenge: DomainFixtures.challenge(),
            expiresAt: Date().addingTimeInterval(expiresIn))
    }

    /// Completes the registration through the store, as the finish does first; whether it could.
    static func complete(_ repos: Repositories, _ registration: PasskeyAccountRegistration) async throws -> Bool {
        try await repos.store.transaction { tx async throws(RepositoryError) in
            try await tx.accountRegistrations.complete(registration.id, at: Date())
        }
    }

    @Test func startRecordsWhatTheFormGaveAndTheSheetDidNot() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let form = Self.registration(email: "Form@Example.com")
            let sheet = Self.registration()
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
}

/// Contract v3: at most five failing finishes, counted in the database under concurrency.
extension AccountRegistrationRepositoryTests {
    @Test func ofConcurrentFailuresAtMostFiveAreCountedAndTheRegistrationIsThenUsedUp() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let r = Self.registration()
            try await repos.registrations.saveAccountRegistration(r)
            try await openConnections(8, of: pool)
            let counted = try await race(20) { try await repos.registrations.recordFailedFinish(id: r.id, now: Date()) }
            #expect(counted == PasskeyAccountRegistration.maximumFailedFinishes)
            #expect(try await repos.registrations.usableAccountRegistration(id: r.id, now: Date()) == nil)
            #expect(try await repos.registrations.recordFailedFinish(id: r.id, now: Date()) == false)
            #expect(try await Self.complete(repos, r) == false)
        }
    }

    @Test func fourFailuresLeaveTheRegistrationUsable() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let r = Self.registration()
            try await repos.registrations.saveAccountRegistration(r)
            for _ in 1..<PasskeyAccountRegistration.maximumFailedFinishes {
                #expect(try await repos.registrations.recordFailedFinish(id: r.id, now: Date()))
            }
            #expect(try await repos.registrations.usableAccountRegistration(id: r.id, now: Date()) != nil)
            #expect(try await Self.complete(repos, r))
            #expect(try await repos.registrations.recordFailedFinish(id: r.id, now: Date()) == false)
        }
    }
}
