import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

@Suite struct RateLimitRepositoryTests {
    @Test func startsAreCountedPerAddressWithinTheMinute() async throws {
        try await withTestDatabase { _, pool in
            let limits = PostgresRateLimitRepository(pool: pool)
            for _ in 0..<3 {
                #expect(try await limits.countHit(key: "start:192.0.2.1", limit: 3, windowSeconds: 60) == .allowed)
            }
            let fourth = try await limits.countHit(key: "start:192.0.2.1", limit: 3, windowSeconds: 60)
            guard case .limited(let retryAfter) = fourth else {
                Issue.record("the fourth start in a minute was allowed")
                return
            }
            #expect((1...60).contains(retryAfter))
            #expect(try await limits.countHit(key: "start:192.0.2.2", limit: 3, windowSeconds: 60) == .allowed)
        }
    }

    @Test func hitsInLongerWindowsAreCountedToo() async throws {
        try await withTestDatabase { _, pool in
            let limits = PostgresRateLimitRepository(pool: pool)
            #expect(try await limits.countHit(key: "signup:192.0.2.1", limit: 1, windowSeconds: 900) == .allowed)
            guard
                case .limited(let retryAfter) = try await limits.countHit(
                    key: "signup:192.0.2.1", limit: 1, windowSeconds: 900)
            else {
                Issue.record("the second sign-up of a one-sign-up window was allowed")
                return
            }
            #expect((1...900).contains(retryAfter))
        }
    }

    @Test func attemptsCountPerEmailAndPerAddressAndSuccessUncounts() async throws {
        try await withTestDatabase { _, pool in
            let limits = PostgresRateLimitRepository(pool: pool)
            let two = AttemptLimits(perEmail: 2, perAddress: 3, window: 900)
            #expect(try await Self.allowed(limits, "a@example.com", "192.0.2.1", two) != nil)
            let second = try await Self.allowed(limits, "a@example.com", "192.0.2.2", two)
            #expect(second != nil)
            // The email has used its budget, from any address.
            let third = try await limits.beginAttempt(
                normalizedEmail: "a@example.com", clientAddress: "192.0.2.9", limits: two)
            guard case .limited(let retryAfter) = third else {
                Issue.record("a third attempt on a two-attempt email answered \(third)")
                return
            }
            #expect((890...900).contains(retryAfter))
            // A success gives its attempt back.
            try await limits.forgiveAttempt(try #require(second))
            #expect(try await Self.allowed(limits, "a@example.com", "192.0.2.3", two) != nil)
            // The address 192.0.2.1 has one attempt counted; two more other emails fill it.
            #expect(try await Self.allowed(limits, "b@example.com", "192.0.2.1", two) != nil)
            #expect(try await Self.allowed(limits, "c@example.com", "192.0.2.1", two) != nil)
            #expect(try await Self.allowed(limits, "d@example.com", "192.0.2.1", two) == nil)
        }
    }

    /// Security round 4, finding 3: for a mailed code's sign-in a spent email budget still
    /// counts the attempt against the address (`emailLimited`), and a spent address refuses.
    @Test func aSpentEmailBudgetCountsAgainstTheAddressWhenTheRightSecretMayPass() async throws {
        try await withTestDatabase { _, pool in
            let limits = PostgresRateLimitRepository(pool: pool)
            let budget = AttemptLimits(perEmail: 1, perAddress: 2, window: 900)
            func begin(_ address: String) async throws -> AttemptDecision {
                try await limits.beginAttempt(
                    normalizedEmail: "a@example.com", clientAddress: address, limits: budget,
                    rightSecretPassesEmailLimit: true)
            }
            guard case .allowed = try await begin("192.0.2.1") else {
                Issue.record("the first attempt was refused")
                return
            }
            guard case .emailLimited(_, let retryAfter) = try await begin("192.0.2.2") else {
                Issue.record("a spent email with a fresh address was not emailLimited")
                return
            }
            #expect((1...900).contains(retryAfter))
            guard case .emailLimited = try await begin("192.0.2.2") else {
                Issue.record("the address's second attempt was refused")
                return
            }
            guard case .limited = try await begin("192.0.2.2") else {
                Issue.record("a spent address was let through")
                return
            }
            let counted = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("SELECT count(*) FROM password_failures WHERE client_address = '192.0.2.2'")
                    .first?.decode(Int.self, column: "count")
            }
            #expect(counted == 2)
        }
    }

    /// The attack of the security review: a burst of guesses all read the count before any
    /// wrote it. Counted atomically before the check, exactly the limit get through. (Each
    /// waiter holds a connection while the database serialises it; in the server a per-key
    /// `AttemptGate` queues one instance's burst without connections, see AttemptGateTests.)
    @Test func attemptsHoldTheLimitUnderARealRace() async throws {
        // One connection per attempt: they wait on the database's lock, never on the pool (whose
        // acquire timeout a loaded machine would otherwise reach).
        try await withTestDatabase(maximumConnections: 32) { _, pool in
            let limits = PostgresRateLimitRepository(pool: pool)
            let budget = AttemptLimits(perEmail: 10, perAddress: 1_000, window: 900)
            let allowed = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<32 {
                    group.addTask {
                        // Many addresses: only the per-email limit can hold them.
                        try await Self.allowed(limits, "victim@example.com", "198.51.100.\(index)", budget) != nil
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(allowed == 10)
            let perAddress = AttemptLimits(perEmail: 1_000, perAddress: 7, window: 900)
            let fromOneAddress = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<24 {
                    group.addTask {
                        try await Self.allowed(limits, "user\(index)@example.com", "203.0.113.5", perAddress) != nil
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(fromOneAddress == 7)
        }
    }

    @Test func oldAttemptsLeaveTheWindowAndAreSwept() async throws {
        try await withTestDatabase { _, pool in
            let limits = PostgresRateLimitRepository(pool: pool)
            let one = AttemptLimits(perEmail: 1, perAddress: 1, window: 900)
            #expect(try await Self.allowed(limits, "a@example.com", "192.0.2.1", one) != nil)
            #expect(try await Self.allowed(limits, "a@example.com", "192.0.2.1", one) == nil)
            _ = try await pool.withConnection { c async throws(PostgresError) in
                try await c.query("UPDATE password_failures SET failed_at = now() - interval '20 minutes'")
            }
            let maintenance = PostgresMaintenanceRepository(
                pool: pool, migrations: MigrationRunner(migrations: try Migration.load(from: PackagePaths.migrations)),
                passwordFailureWindow: 900)
            #expect(try await maintenance.sweepExpired(batchSize: 10) == 1)
            #expect(try await Self.allowed(limits, "a@example.com", "192.0.2.1", one) != nil)
        }
    }

    private static func allowed(
        _ limits: PostgresRateLimitRepository, _ email: String, _ address: String, _ budget: AttemptLimits
    ) async throws -> AttemptID? {
        switch try await limits.beginAttempt(normalizedEmail: email, clientAddress: address, limits: budget) {
        case .allowed(let attempt): attempt
        case .limited, .emailLimited: nil
        }
    }
}
