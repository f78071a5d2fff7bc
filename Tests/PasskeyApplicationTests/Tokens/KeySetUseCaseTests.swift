import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// The published key set (`GET /.well-known/jwks.json`): the signing key and the next one, a
/// retired key until its last token has expired, never a revoked key, and nothing with tokens
/// off.
@Suite struct KeySetUseCaseTests {
    private static func keySet(_ f: TokenFixture, on: Bool = true) async throws -> [SigningKeyID] {
        try await KeySetUseCase(repository: on ? f.store : nil, policy: f.policy, clock: f.clock).execute().map(\.id)
    }

    @Test func theKeysThatMayVerifyATokenArePublished() async throws {
        let f = TokenFixture(lifetime: 300)
        #expect(try await Self.keySet(f).isEmpty)
        let first = try #require(try await f.rotation.ensure()).key
        #expect(try await Self.keySet(f) == [first.id])
        // A rotation's key is published before it signs.
        let next = try await f.rotation.rotate().key
        #expect(try await Self.keySet(f) == [first.id, next.id])
        // Once the next key signs, the first stays until its last token expired.
        f.clock.advance(by: SigningKeySet.publicationLead + 299)
        #expect(try await Self.keySet(f) == [first.id, next.id])
        f.clock.advance(by: 1)
        #expect(try await Self.keySet(f) == [next.id])
    }

    @Test func aRevokedKeyLeavesAtOnce() async throws {
        let f = TokenFixture()
        let first = try #require(try await f.rotation.ensure()).key
        let replacement = try #require(try await f.rotation.revoke(first.id)).key
        #expect(try await Self.keySet(f) == [replacement.id])
    }

    @Test func withTokensOffTheSetIsEmpty() async throws {
        let f = TokenFixture()
        _ = try await f.rotation.ensure()
        #expect(try await Self.keySet(f, on: false).isEmpty)
    }
}
