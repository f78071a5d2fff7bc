import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `AccountEventStatement`, the one INSERT of the activity log, through both of its callers: the
/// store's `tx.events.record` and the password sign-in's `createSession(_:event:whilePasswordHashIs:)`. An event
/// reads back as written, and a password sign-in records whether its account held a passkey then
/// (`had_passkey`, what the upgrade rate counts by); other events leave it null.
@Suite struct AccountEventStatementTests {
    static func event(_ account: Account, _ activity: AccountActivity, session: SessionID? = nil) -> AccountEvent {
        AccountEvent(
            id: AccountEventID(), accountID: account.id, activity: activity, occurredAt: DomainFixtures.now(),
            clientAddress: "192.0.2.1", userAgent: "Tests/1.0", sessionID: session)
    }

    static func hadPasskey(_ repos: Repositories, _ event: AccountEvent) async throws -> Bool? {
        let row = try #require(
            try await repos.rows("SELECT had_passkey FROM account_events WHERE id = \(event.id.uuid)").first)
        return try row.decode(Bool?.self, column: "had_passkey")
    }

    /// A password sign-in, with its event.
    static func signIn(_ repos: Repositories, _ account: Account) async throws -> AccountEvent {
        let session = DomainFixtures.session(accountID: account.id)
        let event = Self.event(account, .signIn(.password, credentialID: nil), session: session.id)
        #expect(
            try await repos.sessions.createSession(
                session, event: event, whilePasswordHashIs: Repositories.passwordHash) == .created)
        return event
    }

    @Test func aPasswordSignInRecordsWhetherTheAccountHadAPasskey() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let before = try await Self.signIn(repos, account)
            #expect(try await Self.hadPasskey(repos, before) == false)

            let passkey = DomainFixtures.passkey(accountID: account.id)
            try await repos.addPasskey(passkey)
            let after = try await Self.signIn(repos, account)
            #expect(try await Self.hadPasskey(repos, after) == true)
            // The same statement through the store.
            let recorded = Self.event(account, .signIn(.password, credentialID: nil))
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.events.record(recorded)
            }
            #expect(try await Self.hadPasskey(repos, recorded) == true)

            let others = [
                Self.event(account, .passkeyAdded(.modal, credentialID: passkey.id)),
                Self.event(account, .signIn(.recovery, credentialID: nil)),
                Self.event(account, .signInFailed(.password)),
            ]
            try await repos.store.transaction { tx async throws(RepositoryError) in
                for event in others { try await tx.events.record(event) }
            }
            for event in others { #expect(try await Self.hadPasskey(repos, event) == nil, "\(event.kind)") }
        }
    }

    @Test func anEventReadsBackAsItWasRecorded() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let passkey = DomainFixtures.passkey(accountID: account.id)
            let events = [
                Self.event(account, .passkeyRenamed(credentialID: passkey.id), session: SessionID()),
                Self.event(account, .recoveryCodeIssued(issuer: SupportAgentName("Desk 3 (Mika)"))),
            ]
            try await repos.store.transaction { tx async throws(RepositoryError) in
                for event in events { try await tx.events.record(event) }
            }
            let signIn = try await Self.signIn(repos, account)
            let stored = try await repos.events.events(accountID: account.id, before: nil, limit: 10)
            #expect(Set(stored) == Set(events + [signIn]))
        }
    }
}
