import Foundation
import PasskeyApplication
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

@Suite struct RateLimitRepositoryTests {
    @Test func startsAreCountedPerAddressWithinTheMinute() async throws {
        try await withTestDatabase { _, pool in
            let limits = PostgresRateLimitRepository(pool: pool)
            for _ in 0..<3 {
                #expect(try await limits.registerStart(clientAddress: "192.0.2.1", limitPerMinute: 3) == .allowed)
            }
            let fourth = try await limits.registerStart(clientAddress: "192.0.2.1", limitPerMinute: 3)
            guard case .limited(let retryAfter) = fourth else {
                Issue.record("the fourth start in a minute was allowed")
                return
            }
            #expect((1...60).contains(retryAfter))
            #expect(try await limits.registerStart(clientAddress: "192.0.2.2", limitPerMinute: 3) == .allowed)
        }
    }

    @Test func passwordFailuresCountPerEmailAndPerAddress() async throws {
        try await withTestDatabase { _, pool in
            let limits = PostgresRateLimitRepository(pool: pool)
            try await limits.recordPasswordFailure(normalizedEmail: "a@example.com", clientAddress: "192.0.2.1")
            try await limits.recordPasswordFailure(normalizedEmail: "a@example.com", clientAddress: "192.0.2.2")
            try await limits.recordPasswordFailure(normalizedEmail: "b@example.com", clientAddress: "192.0.2.1")
            let counts = try await limits.passwordFailures(
                normalizedEmail: "a@example.com", clientAddress: "192.0.2.1", window: 900)
            #expect(counts.forEmail == 2)
            #expect(counts.forAddress == 2)
            #expect((890...900).contains(counts.retryAfter))
            let none = try await limits.passwordFailures(
                normalizedEmail: "c@example.com", clientAddress: "192.0.2.9", window: 900)
            #expect(none == PasswordFailureCounts(forEmail: 0, forAddress: 0, retryAfter: 0))
        }
    }

    @Test func oldFailuresLeaveTheWindowAndAreSwept() async throws {
        try await withTestDatabase { _, pool in
            let limits = PostgresRateLimitRepository(pool: pool)
            try await limits.recordPasswordFailure(normalizedEmail: "a@example.com", clientAddress: "192.0.2.1")
            _ = try await pool.withConnection { c throws(PostgresError) in
                try c.query("UPDATE password_failures SET failed_at = now() - interval '20 minutes'")
            }
            let counts = try await limits.passwordFailures(
                normalizedEmail: "a@example.com", clientAddress: "192.0.2.1", window: 900)
            #expect(counts.forEmail == 0)
            let maintenance = PostgresMaintenanceRepository(
                pool: pool, migrations: MigrationRunner(migrations: try Migration.load(from: PackagePaths.migrations)),
                passwordFailureWindow: 900)
            #expect(try await maintenance.sweepExpired(batchSize: 10) == 1)
        }
    }
}
