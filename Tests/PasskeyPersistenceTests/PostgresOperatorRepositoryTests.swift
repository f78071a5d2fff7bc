import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// The operators in SQL: stored with the digest of their token, found by it, listed by name,
/// removed; a taken name or digest refused.
@Suite struct PostgresOperatorRepositoryTests {
    static func named(_ name: String, _ role: OperatorRole = .viewer) throws -> Operator {
        Operator(name: try #require(SupportAgentName(name)), role: role, createdAt: DomainFixtures.now())
    }

    @Test func operatorsAreStoredFoundListedAndRemoved() async throws {
        try await withTestDatabase { _, pool in
            let repository = PostgresOperatorRepository(pool: pool)
            #expect(!(try await repository.anyExists()))
            let digest = [UInt8](repeating: 1, count: 32)
            let zoe = try Self.named("Zoe", .admin)
            #expect(try await repository.add(zoe, tokenDigest: digest))
            #expect(
                try await repository.add(try Self.named("Ann", .support), tokenDigest: [UInt8](repeating: 2, count: 32))
            )
            #expect(!(try await repository.add(try Self.named("Ann"), tokenDigest: [UInt8](repeating: 3, count: 32))))
            #expect(try await repository.anyExists())
            let found = try #require(try await repository.find(tokenDigest: digest))
            #expect(found.name.value == "Zoe" && found.role == .admin && found.createdAt == zoe.createdAt)
            #expect(try await repository.find(tokenDigest: [UInt8](repeating: 9, count: 32)) == nil)
            #expect(try await repository.list().map(\.name.value) == ["Ann", "Zoe"])
            #expect(try await repository.remove(named: try #require(SupportAgentName("Zoe"))))
            #expect(!(try await repository.remove(named: try #require(SupportAgentName("Zoe")))))
            #expect(try await repository.find(tokenDigest: digest) == nil, "its token stops at once")
        }
    }

    @Test func aDigestIsOneOperators() async throws {
        try await withTestDatabase { _, pool in
            let repository = PostgresOperatorRepository(pool: pool)
            let digest = [UInt8](repeating: 7, count: 32)
            #expect(try await repository.add(try Self.named("Ann"), tokenDigest: digest))
            let bob = try Self.named("Bob")
            await #expect(throws: RepositoryError.self) { try await repository.add(bob, tokenDigest: digest) }
        }
    }
}
