import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// `signing_keys` through the unit of work (`tx.signingKeys`) and `PostgresSigningKeyRepository`:
/// a key stored and read back whole (the JWK the key set publishes, the sealed private half),
/// retirement and revocation, and the advisory lock that makes concurrent rotations one.
@Suite struct PostgresSigningKeyWriterTests {
    static func key(signsFrom: Date = DomainFixtures.now(), byte: UInt8 = 1) -> SigningKey {
        SigningKey(
            id: SigningKeyID(random: (0..<16).map { _ in UInt8.random(in: 0...255) }),
            publicKey: ECPublicKeyCoordinates(
                x: Array(repeating: byte, count: 32), y: Array(repeating: ~byte, count: 32)),
            sealedPrivateKey: (0..<150).map { _ in UInt8.random(in: 0...255) }, createdAt: DomainFixtures.now(),
            signsFrom: signsFrom)
    }

    static func insert(_ keys: [SigningKey], _ repos: Repositories) async throws {
        try await repos.store.transaction { tx async throws(RepositoryError) in
            for key in keys { try await tx.signingKeys.insert(key) }
        }
    }

    @Test func aKeyIsStoredAndReadBackWhole() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let key = Self.key()
            try await Self.insert([key], repos)
            #expect(try await PostgresSigningKeyRepository(pool: pool).keys(includingRevoked: false) == [key])
            let all = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.signingKeys.all()
            }
            #expect(all == [key])
            // The published half is a JWK; the private half is only the sealed box.
            let row = try #require(
                try await repos.rows("SELECT public_key::text AS jwk, private_key FROM signing_keys").first)
            let jwk: String = try row.decode(column: "jwk")
            #expect(jwk.contains(#""kty": "EC""#) && jwk.contains(#""crv": "P-256""#))
            #expect(jwk.contains(Base64URL.encode(key.publicKey.x)))
            #expect(try row.decode(column: "private_key") == key.sealedPrivateKey)
        }
    }

    @Test func retiringAndRevokingSetTheirTimesOnce() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let first = Self.key()
            let second = Self.key(signsFrom: DomainFixtures.now().addingTimeInterval(600))
            try await Self.insert([first, second], repos)
            let at = DomainFixtures.now().addingTimeInterval(10)
            let later = at.addingTimeInterval(10)
            let outcomes = try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.signingKeys.retire(first.id, at: at)
                try await tx.signingKeys.retire(first.id, at: later)
                return [
                    try await tx.signingKeys.revoke(second.id, at: at),
                    try await tx.signingKeys.revoke(second.id, at: later),
                    try await tx.signingKeys.revoke(SigningKeyID(random: Array(repeating: 3, count: 16)), at: at),
                ]
            }
            #expect(outcomes == [true, false, false])
            let repository = PostgresSigningKeyRepository(pool: pool)
            let unrevoked = try await repository.keys(includingRevoked: false)
            #expect(unrevoked.map(\.id) == [first.id])
            #expect(unrevoked.first?.retiredAt == at)
            let every = try await repository.keys(includingRevoked: true)
            #expect(every.map(\.id) == [first.id, second.id], "in signing order")
            #expect(every.last?.revokedAt == at)
        }
    }

    @Test func aDuplicateIDIsAConflictAndRollsBack() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let key = Self.key()
            try await Self.insert([key], repos)
            await #expect(throws: RepositoryError.self) {
                try await Self.insert([Self.key(), key], repos)
            }
            #expect(try await repos.count("SELECT count(*) FROM signing_keys") == 1)
        }
    }

    @Test func theKeySetLockMakesASecondChangeWait() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let (held, release) = AsyncStream.makeStream(of: Void.self)
            let (locked, lockedSignal) = AsyncStream.makeStream(of: Void.self)
            let holder = Task {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.signingKeys.lockKeySet()
                    lockedSignal.yield()
                    for await _ in held { break }
                }
            }
            for await _ in locked { break }
            let waiter = Task {
                try await repos.store.transaction { tx async throws(RepositoryError) in
                    try await tx.signingKeys.lockKeySet()
                }
            }
            #expect(try await repos.aStatementWaitsForALock())
            release.yield()
            try await holder.value
            try await waiter.value
        }
    }
}

/// `PostgresSigningKeyRepository`: the keys every instance reads, revoked ones only for the list.
@Suite struct PostgresSigningKeyRepositoryTests {
    @Test func revokedKeysAreReadOnlyWhenAskedFor() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let kept = PostgresSigningKeyWriterTests.key()
            var revoked = PostgresSigningKeyWriterTests.key(signsFrom: DomainFixtures.now().addingTimeInterval(-60))
            revoked.revokedAt = DomainFixtures.now()
            try await PostgresSigningKeyWriterTests.insert([kept, revoked], repos)
            let repository = PostgresSigningKeyRepository(pool: pool)
            #expect(try await repository.keys(includingRevoked: false) == [kept])
            #expect(try await repository.keys(includingRevoked: true) == [revoked, kept])
        }
    }
}
