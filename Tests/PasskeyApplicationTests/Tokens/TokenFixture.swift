import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Synchronization

/// The tokens' use cases over the in-memory store, a clock the test moves, and a token format
/// without cryptography (`RecordingAccessTokenFormat`): what the rules decide, not how ES256
/// signs (that is `ES256AccessTokenFormatTests`' and the end-to-end suites').
struct TokenFixture {
    static let issuer = "https://auth.example.com"
    static let audiences = ["https://api.example.com", "https://billing.example.com"]

    let store = InMemoryStore()
    let clock = FixedClock()
    let random = SequentialRandomGenerator()
    let format = RecordingAccessTokenFormat()
    let generator = SequentialTokenGenerator()
    let sealer: LabelledSecretSealer
    let policy: TokenPolicy
    let keys: SigningKeyCache

    init(lifetime: TimeInterval = 300, sealer: LabelledSecretSealer = LabelledSecretSealer()) {
        self.sealer = sealer
        policy = TokenPolicy(
            issuer: Self.issuer, audiences: Self.audiences, lifetime: lifetime, rotationInterval: 90 * 86_400)
        keys = SigningKeyCache(repository: store, sealer: sealer, clock: clock)
    }

    var rotation: SigningKeyRotationUseCase {
        SigningKeyRotationUseCase(
            store: store, format: format, sealer: sealer, policy: policy, clock: clock, random: random)
    }

    func minting(tokensOn: Bool = true) -> ServiceTokenUseCase {
        ServiceTokenUseCase(
            sessions: store, tokens: generator, keys: tokensOn ? keys : nil, format: format, policy: policy,
            clock: clock, random: random, rotation: tokensOn ? rotation : nil)
    }

    func introspection(sessions: (any TokenSessionRepository)? = nil, tokensOn: Bool = true) -> IntrospectionUseCase {
        IntrospectionUseCase(
            sessions: sessions ?? store, keys: tokensOn ? keys : nil, format: format, tokens: generator,
            digester: PlainDigester(), policy: policy, clock: clock)
    }

    /// A live session of a new account whose bearer token is `token-N`; returns the token and
    /// the session.
    func signedIn(
        method: AuthenticationMethod = .password, userVerified: Bool = false, password: Bool = true,
        passkey: Bool = false, lifetime: TimeInterval = 3600
    ) -> (token: String, session: AuthenticationSession) {
        let account = store.addAccount(passwordHash: password ? "hash" : nil)
        if passkey { store.add(DomainFixtures.passkey(accountID: account.id)) }
        let token = generator.makeToken()
        let session = AuthenticationSession(
            accountID: account.id, tokenDigest: token.digest, method: method, createdAt: clock.now,
            expiresAt: clock.now.addingTimeInterval(lifetime), userVerified: userVerified)
        store.add(session)
        return (token.token, session)
    }

    /// Ends a session as a sign-out does.
    func end(_ session: AuthenticationSession) {
        let now = clock.now
        store.update { $0.sessions[session.id]?.revokedAt = now }
    }

    /// `date` cut to whole seconds, as the claims count.
    static func seconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}

/// A `TokenSessionRepository` that counts its lookups: introspection must cost exactly one.
final class CountingTokenSessions: TokenSessionRepository {
    let base: any TokenSessionRepository
    private let count = Mutex(0)

    init(_ base: any TokenSessionRepository) { self.base = base }

    var lookups: Int { count.withLock { $0 } }

    func liveSession(tokenDigest: [UInt8], now: Date) async throws(RepositoryError) -> LiveSessionFacts? {
        count.withLock { $0 += 1 }
        return try await base.liveSession(tokenDigest: tokenDigest, now: now)
    }

    func liveSession(_ id: SessionID, of accountID: AccountID, signedWith keyID: SigningKeyID, now: Date)
        async throws(RepositoryError) -> LiveSessionFacts?
    {
        count.withLock { $0 += 1 }
        return try await base.liveSession(id, of: accountID, signedWith: keyID, now: now)
    }
}
