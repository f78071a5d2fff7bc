import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// A token generator with a known output, to check what the issuer does with it.
private struct CountingTokens: SessionTokenGenerator {
    func makeToken() -> SessionToken { SessionToken(token: "token-1", digest: Array(repeating: 9, count: 32)) }
    func digest(ofPresentedToken token: String) -> [UInt8]? { nil }
}

@Suite struct SessionIssuerTests {
    @Test func storesTheDigestAndReturnsTheTokenWithTheConfiguredLifetime() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let account = DomainFixtures.account(createdAt: now)
        let issuer = SessionIssuer(tokens: CountingTokens(), lifetime: 3600)
        let (stored, issued) = issuer.make(for: account, method: .password, now: now)
        #expect(stored.tokenDigest == Array(repeating: 9, count: 32))
        #expect(stored.accountID == account.id)
        #expect(stored.method == .password)
        #expect(stored.createdAt == now)
        #expect(stored.expiresAt == now.addingTimeInterval(3600))
        #expect(issued.accessToken == "token-1")
        #expect(issued.expiresAt == stored.expiresAt)
        #expect(issued.account == account)
    }
}
