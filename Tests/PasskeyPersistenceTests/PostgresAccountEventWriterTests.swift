import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresAccountEventWriter` (`tx.events.record`), for the columns it writes: each activity's
/// kind, method and passkey in the spellings the activity log and the adoption figures read, the
/// session, the client, the User-Agent cut to what the column holds, and refusals that end the
/// transaction. (`had_passkey` is `AccountEventStatementTests`'.)
@Suite struct PostgresAccountEventWriterTests {
    /// One stored row, as its columns.
    struct Columns: Equatable {
        var accountID: UUID
        var kind: String
        var method: String?
        var credentialID: [UInt8]?
        var sessionID: UUID?
        var occurredAt: Date
        var clientAddress: String
        var userAgent: String
    }

    static func columns(_ id: AccountEventID, _ repos: Repositories) async throws -> Columns? {
        guard
            let row = try await repos.rows(
                """
                SELECT account_id, kind, method, credential_id, session_id, occurred_at, client_address, user_agent
                FROM account_events WHERE id = \(id.uuid)
                """
            ).first
        else { return nil }
        return Columns(
            accountID: try row.decode(column: "account_id"), kind: try row.decode(column: "kind"),
            method: try row.decode(column: "method"), credentialID: try row.decode(column: "credential_id"),
            sessionID: try row.decode(column: "session_id"), occurredAt: try row.decode(column: "occurred_at"),
            clientAddress: try row.decode(column: "client_address"), userAgent: try row.decode(column: "user_agent"))
    }

    static func record(_ events: [AccountEvent], _ repos: Repositories) async throws {
        try await repos.store.transaction { tx async throws(RepositoryError) in
            for event in events { try await tx.events.record(event) }
        }
    }

    static func event(
        _ accountID: AccountID, _ activity: AccountActivity = .passwordSet, userAgent: String? = "Tests/1.0",
        clientAddress: String = "192.0.2.1", sessionID: SessionID? = nil
    ) -> AccountEvent {
        AccountEvent(
            id: AccountEventID(), accountID: accountID, activity: activity, occurredAt: DomainFixtures.now(),
            clientAddress: clientAddress, userAgent: userAgent, sessionID: sessionID)
    }

    /// Every activity, and the kind, method and passkey columns it is stored as.
    @Test func eachActivityIsStoredAsItsKindMethodAndPasskey() async throws {
        let passkey = DomainFixtures.credentialID([0x00, 0x01, 0xFE, 0xFF])
        let expected: [(AccountActivity, String, String?, [UInt8]?)] = [
            (.accountCreated(.password), "account.created", "password", nil),
            (.accountCreated(.passkey), "account.created", "passkey", nil),
            (.accountCreated(.import), "account.created", "import", nil),
            (.emailVerified, "email.verified", nil, nil),
            (.emailChanged, "email.changed", nil, nil),
            (.accountReclaimed, "account.reclaimed", nil, nil),
            (.signIn(.password, credentialID: nil), "sign-in", "password", nil),
            (.signIn(.passkey, credentialID: passkey), "sign-in", "passkey", passkey.bytes),
            (.signIn(.recovery, credentialID: nil), "sign-in", "recovery", nil),
            (.signIn(.email, credentialID: nil), "sign-in", "email", nil),
            (.signInFailed(.password), "sign-in.failed", "password", nil),
            (.signInFailed(.recovery), "sign-in.failed", "recovery", nil),
            (.signInFailed(.email), "sign-in.failed", "email", nil),
            (.passkeyAdded(.modal, credentialID: passkey), "passkey.added", "modal", passkey.bytes),
            (.passkeyAdded(.conditional, credentialID: passkey), "passkey.added", "conditional", passkey.bytes),
            (.passkeyAdded(.signUp, credentialID: passkey), "passkey.added", "sign-up", passkey.bytes),
            (.passkeyRenamed(credentialID: passkey), "passkey.renamed", nil, passkey.bytes),
            (.passkeyDeleted(credentialID: passkey), "passkey.deleted", nil, passkey.bytes),
            (.passwordSet, "password.set", nil, nil),
            (.passwordRemoved, "password.removed", nil, nil),
            (.recoveryCodesCreated, "recovery-codes.created", nil, nil),
            (.recoveryCodeIssued(issuer: nil), "recovery-code.issued", nil, nil),
            (
                .recoveryCodeIssued(issuer: SupportAgentName("Desk 3 (Mika)")), "recovery-code.issued", "Desk 3 (Mika)",
                nil
            ),
            (.sessionsEnded(.one), "sessions.ended", "one", nil),
            (.sessionsEnded(.others), "sessions.ended", "others", nil),
            (.signedOut, "signed-out", nil, nil),
            (.sessionsEnded(.support), "sessions.ended", "support", nil),
            (.accountLocked(reason: LockReason("At the owner's request")!), "account.locked", nil, nil),
            (.accountUnlocked, "account.unlocked", nil, nil),
        ]
        #expect(
            Set(expected.map(\.1)).count == AccountActivity.Kind.allCases.filter { !$0.isWebhookOnly }.count,
            "an activity kind is missing")
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let session = SessionID()
            let events = expected.map { Self.event(account.id, $0.0, sessionID: session) }
            try await Self.record(events, repos)
            for (event, (activity, kind, method, credential)) in zip(events, expected) {
                let stored = try #require(try await Self.columns(event.id, repos), "\(activity)")
                #expect(
                    stored
                        == Columns(
                            accountID: account.id.uuid, kind: kind, method: method, credentialID: credential,
                            sessionID: session.uuid, occurredAt: event.occurredAt, clientAddress: "192.0.2.1",
                            userAgent: "Tests/1.0"),
                    "\(activity)")
            }
        }
    }

    /// The session is stored when the event has one and is null without; the client as it was
    /// resolved; the User-Agent cut to 256 Unicode scalars (what `char_length` counts), however
    /// many bytes or characters they make, and empty when none was sent.
    @Test func theSessionClientAndCutUserAgentAreStored() async throws {
        let agents: [(sent: String?, stored: String)] = [
            (nil, ""),
            ("", ""),
            // Agents of a browser-like phrase: a run of one letter (or of digits) could match a
            // test password or mailed code in the suite-wide secret audit (check-event-secrets.py).
            (String(repeating: "Gecko/16 ", count: 28) + "Geck", String(repeating: "Gecko/16 ", count: 28) + "Geck"),
            (String(repeating: "Gecko/16 ", count: 40), String(String(repeating: "Gecko/16 ", count: 40).prefix(256))),
            // Two scalars per character: 400 scalars in, 128 characters out.
            (String(repeating: "e\u{301}", count: 200), String(repeating: "e\u{301}", count: 128)),
            // Four UTF-8 bytes per scalar.
            (String(repeating: "😀", count: 300), String(repeating: "😀", count: 256)),
            // One character of 300 scalars (a base and 299 combining marks).
            ("x" + String(repeating: "\u{301}", count: 299), "x" + String(repeating: "\u{301}", count: 255)),
        ]
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let session = SessionID()
            let withSession = Self.event(account.id, .emailChanged, clientAddress: "2001:db8::7", sessionID: session)
            let without = Self.event(account.id, .recoveryCodesCreated, clientAddress: "command line")
            let byAgent = agents.map { Self.event(account.id, userAgent: $0.sent) }
            try await Self.record([withSession, without] + byAgent, repos)

            let stored = try #require(try await Self.columns(withSession.id, repos))
            #expect(stored.sessionID == session.uuid)
            #expect(stored.clientAddress == "2001:db8::7")
            let none = try #require(try await Self.columns(without.id, repos))
            #expect(none.sessionID == nil)
            #expect(none.clientAddress == "command line")
            for (event, agent) in zip(byAgent, agents) {
                let row = try #require(try await Self.columns(event.id, repos))
                #expect(row.userAgent.unicodeScalars.elementsEqual(agent.stored.unicodeScalars))
                let length = try await repos.count(
                    "SELECT char_length(user_agent) AS count FROM account_events WHERE id = \(event.id.uuid)")
                #expect(length == agent.stored.unicodeScalars.count)
            }
        }
    }

    /// An event of an account that no longer exists is `accountGone`, one whose ID is recorded
    /// already a conflict; either way the transaction stores nothing, not the event before it.
    @Test func anEventOfAGoneAccountOrARecordedIDIsRefusedWithItsTransaction() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let recorded = Self.event(account.id)
            try await Self.record([recorded], repos)
            let first = Self.event(account.id, .emailVerified)
            await #expect(throws: RepositoryError.accountGone) {
                try await Self.record([first, Self.event(AccountID(), .passwordRemoved)], repos)
            }
            await #expect(throws: RepositoryError.conflict(.other("account_events_pkey"))) {
                try await Self.record([first, recorded], repos)
            }
            #expect(try await Self.columns(first.id, repos) == nil)
            #expect(try await repos.count("SELECT count(*) FROM account_events") == 1)
        }
    }
}
