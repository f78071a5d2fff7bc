import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// A token generator with a known output, to check what the issuer does with it.
/// Sixteen 0x11 bytes for every ID.
private struct FixedRandom: RandomGenerator {
    func bytes(count: Int) -> [UInt8] { Array(repeating: 0x11, count: count) }
}

private struct CountingTokens: SessionTokenGenerator {
    func makeToken() -> SessionToken { SessionToken(token: "token-1", digest: Array(repeating: 9, count: 32)) }
    func digest(ofPresentedToken token: String) -> [UInt8]? { nil }
}

@Suite struct SessionIssuerTests {
    @Test func storesTheDigestAndReturnsTheTokenWithTheConfiguredLifetime() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let account = DomainFixtures.account(createdAt: now)
        let issuer = SessionIssuer(tokens: CountingTokens(), random: FixedRandom(), lifetime: 3600)
        let (stored, issued) = issuer.make(for: account, method: .password, now: now)
        #expect(stored.tokenDigest == Array(repeating: 9, count: 32))
        #expect(stored.accountID == account.id)
        #expect(stored.method == .password)
        // A version-4 UUID made from the generator's bytes.
        #expect(stored.id.description == "11111111-1111-4111-9111-111111111111")
        #expect(stored.createdAt == now)
        #expect(stored.expiresAt == now.addingTimeInterval(3600))
        #expect(issued.accessToken == "token-1")
        #expect(issued.expiresAt == stored.expiresAt)
        #expect(issued.account == account)
    }
}
