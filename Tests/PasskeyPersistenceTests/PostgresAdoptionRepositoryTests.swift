import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `PostgresAdoptionRepository`'s three reads, as the repository answers them: the stages from
/// the credentials held now (each account once, however many passkeys), the raw daily counts by
/// kind and method (the same whether a day is counted now or read from `account_event_days`, and
/// following the retention sweep), and the upgrade by what an account held at each sign-in.
/// `AdoptionTests` has the figures over HTTP and the window's first and last instants.
@Suite struct PostgresAdoptionRepositoryTests {
    /// An account with a password or not, `passkeys` passkeys and a verified address or not.
    static func account(
        _ repos: Repositories, password: Bool, passkeys: Int, verified: Bool
    ) async throws -> AccountID {
        let account = DomainFixtures.account()
        try await repos.store.transaction { tx async throws(RepositoryError) in
            try await tx.accounts.insert(account)
            try await tx.accounts.insert(DomainFixtures.email(accountID: account.id))
            if password { try await tx.accounts.setPassword(account.id, hash: Repositories.passwordHash, at: Date()) }
            for _ in 0..<passkeys { try await tx.passkeys.insert(DomainFixtures.passkey(accountID: account.id)) }
            if verified { try await tx.accounts.markEmailVerified(account.id, at: Date()) }
        }
        return account.id
    }

    static func record(
        _ accountID: AccountID, _ activities: [(AccountActivity, Date, SessionID?)], _ repos: Repositories
    ) async throws {
        try await repos.store.transaction { tx async throws(RepositoryError) in
            for (activity, date, session) in activities {
                try await tx.events.record(
                    AccountEvent(
                        id: AccountEventID(), accountID: accountID, activity: activity, occurredAt: date,
                        clientAddress: "203.0.113.9", userAgent: nil, sessionID: session))
            }
        }
    }

    static let passkey = DomainFixtures.credentialID([7, 7, 7])

    @Test func theStagesCountEachAccountOnceByWhatItHoldsNow() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let adoption = PostgresAdoptionRepository(pool: pool)
            #expect(
                try await adoption.accountStages()
                    == AccountStages(total: 0, passwordOnly: 0, passwordAndPasskey: 0, passkeyOnly: 0, emailVerified: 0)
            )
            _ = try await Self.account(repos, password: true, passkeys: 0, verified: true)
            _ = try await Self.account(repos, password: true, passkeys: 0, verified: false)
            let both = try await Self.account(repos, password: true, passkeys: 2, verified: false)
            let passkeyOnly = try await Self.account(repos, password: false, passkeys: 3, verified: true)
            // Signed up by email and not yet past its first sign-in: counted, in no stage.
            _ = try await Self.account(repos, password: false, passkeys: 0, verified: true)
            #expect(
                try await adoption.accountStages()
                    == AccountStages(total: 5, passwordOnly: 2, passwordAndPasskey: 1, passkeyOnly: 1, emailVerified: 3)
            )

            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.accounts.deletePassword(both)
                try await tx.passkeys.deleteAll(of: passkeyOnly)
            }
            #expect(
                try await adoption.accountStages()
                    == AccountStages(total: 5, passwordOnly: 2, passwordAndPasskey: 0, passkeyOnly: 1, emailVerified: 3)
            )
        }
    }

    /// Counted kinds only, by UTC day, kind and method (nil for a kind without one, `import` as
    /// itself); days without any are absent. Windows asked in any order agree, whichever of
    /// their days were counted already and kept.
    @Test func theDailyCountsAreByDayKindAndMethodOfTheCountedKindsOnly() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let adoption = PostgresAdoptionRepository(pool: pool)
            let account = try await Self.account(repos, password: true, passkeys: 0, verified: false)
            let now = Date()
            let today = UTCDay(containing: now)
            func at(_ day: Int, hour: Double) -> Date { today.adding(days: day).start.addingTimeInterval(hour * 3600) }
            let earlierToday = today.start.addingTimeInterval(now.timeIntervalSince(today.start) / 2)
            try await Self.record(
                account,
                [
                    (.signIn(.password, credentialID: nil), at(-5, hour: 0), SessionID()),
                    (.signIn(.password, credentialID: nil), at(-5, hour: 23.99), SessionID()),
                    (.passkeyAdded(.modal, credentialID: Self.passkey), at(-5, hour: 12), nil),
                    (.signInFailed(.password), at(-5, hour: 12), nil),
                    (.passwordSet, at(-5, hour: 12), nil),
                    (.accountCreated(.import), at(-3, hour: 1), nil),
                    (.accountCreated(.password), at(-3, hour: 2), nil),
                    (.passwordRemoved, at(-3, hour: 3), nil),
                    (.accountReclaimed, at(-3, hour: 3), nil),
                    (.sessionsEnded(.others), at(-3, hour: 3), nil),
                    (.signIn(.passkey, credentialID: Self.passkey), earlierToday, SessionID()),
                    (.passkeyAdded(.conditional, credentialID: Self.passkey), earlierToday, nil),
                    (.recoveryCodesCreated, earlierToday, nil),
                ], repos)
            let (d5, d3, d0) = (today.adding(days: -5), today.adding(days: -3), today)
            let fiveDays: Set<AdoptionEventCount> = [
                AdoptionEventCount(day: d5, kind: .signIn, method: "password", count: 2),
                AdoptionEventCount(day: d5, kind: .passkeyAdded, method: "modal", count: 1),
                AdoptionEventCount(day: d3, kind: .accountCreated, method: "import", count: 1),
                AdoptionEventCount(day: d3, kind: .accountCreated, method: "password", count: 1),
                AdoptionEventCount(day: d3, kind: .passwordRemoved, method: nil, count: 1),
                AdoptionEventCount(day: d0, kind: .signIn, method: "passkey", count: 1),
                AdoptionEventCount(day: d0, kind: .passkeyAdded, method: "conditional", count: 1),
            ]
            let windows: [(ClosedRange<UTCDay>, Set<AdoptionEventCount>)] = [
                (today.adding(days: -4)...today, fiveDays.filter { $0.day != d5 }),
                (d5...today, fiveDays),
                (d5...d5, fiveDays.filter { $0.day == d5 }),
                (today.adding(days: -4)...today.adding(days: -1), fiveDays.filter { $0.day == d3 }),
                (d5...today, fiveDays),
                (today.adding(days: -30)...today.adding(days: -6), []),
            ]
            for (window, expected) in windows {
                let counts = try await adoption.dailyCounts(days: window)
                #expect(counts.count == expected.count, "\(window)")
                #expect(Set(counts) == expected, "\(window)")
            }
        }
    }

    /// A day counted and kept follows its events: one written into it late (an empty day too)
    /// adds to it, and the retention sweep's deletions take theirs away.
    @Test func aKeptDayFollowsLateEventsAndTheRetentionSweep() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let adoption = PostgresAdoptionRepository(pool: pool)
            let account = try await Self.account(repos, password: true, passkeys: 0, verified: false)
            let today = UTCDay(containing: Date())
            let (d10, d7, d3) = (today.adding(days: -10), today.adding(days: -7), today.adding(days: -3))
            let noon = { (day: UTCDay) in day.start.addingTimeInterval(12 * 3600) }
            try await Self.record(
                account,
                [
                    (.signIn(.password, credentialID: nil), noon(d10), SessionID()),
                    (.signIn(.email, credentialID: nil), noon(d3), SessionID()),
                ], repos)
            let window = d10...today
            /// The counts of the window, summed by day (a day adjusted to nothing may keep zero rows).
            func byDay() async throws -> [UTCDay: Int] {
                try await adoption.dailyCounts(days: window).reduce(into: [:]) { $0[$1.day, default: 0] += $1.count }
            }
            #expect(try await byDay() == [d10: 1, d3: 1])
            try await Self.record(account, [(.signIn(.recovery, credentialID: nil), noon(d7), SessionID())], repos)
            #expect(
                Set(try await adoption.dailyCounts(days: d7...d7).filter { $0.count > 0 })
                    == [AdoptionEventCount(day: d7, kind: .signIn, method: "recovery", count: 1)])

            let maintenance = PostgresMaintenanceRepository(
                pool: pool, migrations: MigrationRunner(migrations: []), eventRetentionDays: 5)
            #expect(try await maintenance.sweepExpired(batchSize: 10) == 2)
            #expect(try await byDay().filter { $0.value != 0 } == [d3: 1])
        }
    }

    /// Password sign-ins during the window by accounts without a passkey at that moment, and
    /// those whose session added one (at any time after, counted once however many).
    @Test func theUpgradeCountsBySignInWhatTheAccountHeldThen() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let adoption = PostgresAdoptionRepository(pool: pool)
            let user = try await Self.account(repos, password: true, passkeys: 0, verified: false)
            let holder = try await Self.account(repos, password: true, passkeys: 1, verified: false)
            let today = UTCDay(containing: Date())
            let window = today.adding(days: -2)...today
            let noon = today.adding(days: -1).start.addingTimeInterval(12 * 3600)
            let (s1, s2, s3, s4, s5, s6, s7) = (
                SessionID(), SessionID(), SessionID(), SessionID(), SessionID(), SessionID(), SessionID()
            )
            let password = AccountActivity.signIn(.password, credentialID: nil)
            let added = AccountActivity.passkeyAdded(.conditional, credentialID: Self.passkey)
            try await Self.record(
                user,
                [
                    (password, noon, s1), (added, noon.addingTimeInterval(30), s1),
                    // Added after the window's end: still this sign-in's session.
                    (password, noon, s2), (added, today.adding(days: 1).start.addingTimeInterval(60), s2),
                    (password, noon, s3), (added, noon.addingTimeInterval(30), s3),
                    (.passkeyAdded(.modal, credentialID: Self.passkey), noon.addingTimeInterval(60), s3),
                    (password, noon, s4),
                    // Not a password sign-in; a sign-in before the window; an addition without a session.
                    (.signIn(.recovery, credentialID: nil), noon, s5), (added, noon.addingTimeInterval(30), s5),
                    (password, window.lowerBound.start.addingTimeInterval(-1), s6), (added, noon, s6),
                    (added, noon, nil),
                ], repos)
            try await Self.record(holder, [(password, noon, s7), (added, noon.addingTimeInterval(30), s7)], repos)
            #expect(try await adoption.upgrade(days: window) == .init(passwordSignIns: 4, followedByPasskey: 3))
            #expect(
                try await adoption.upgrade(days: today.adding(days: -3)...today)
                    == .init(passwordSignIns: 5, followedByPasskey: 4))

            // The user has a passkey now: earlier sign-ins stay chances, a new one is none.
            try await repos.addPasskey(DomainFixtures.passkey(accountID: user))
            try await Self.record(user, [(password, noon.addingTimeInterval(120), SessionID())], repos)
            #expect(try await adoption.upgrade(days: window) == .init(passwordSignIns: 4, followedByPasskey: 3))
            // A window that ended before the addition still counts the sign-in it followed.
            #expect(
                try await adoption.upgrade(days: today.adding(days: -10)...today.adding(days: -3))
                    == .init(passwordSignIns: 1, followedByPasskey: 1))
        }
    }
}
