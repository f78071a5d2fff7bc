package import Foundation
package import PasskeyApplication
package import PasskeyDomain

/// (v4) The tokens' read ports over the same tables.
extension InMemoryStore: SigningKeyRepository, TokenSessionRepository {
    package func keys(includingRevoked: Bool) async throws(RepositoryError) -> [SigningKey] {
        try read { tables in tables.signingKeys.filter { includingRevoked || $0.revokedAt == nil } }
    }

    package func liveSession(tokenDigest: [UInt8], now: Date) async throws(RepositoryError) -> LiveSessionFacts? {
        try read { tables in
            tables.sessions.values.first { $0.tokenDigest == tokenDigest }.flatMap { Self.facts($0, now: now, tables) }
        }
    }

    package func liveSession(_ id: SessionID, of accountID: AccountID, signedWith keyID: SigningKeyID, now: Date)
        async throws(RepositoryError) -> LiveSessionFacts?
    {
        try read { tables in
            guard !tables.signingKeys.contains(where: { $0.id == keyID && $0.revokedAt != nil }),
                let session = tables.sessions[id], session.accountID == accountID
            else { return nil }
            return Self.facts(session, now: now, tables)
        }
    }

    private static func facts(_ session: AuthenticationSession, now: Date, _ tables: InMemoryTables)
        -> LiveSessionFacts?
    {
        guard session.revokedAt == nil, session.expiresAt > now, tables.accounts[session.accountID] != nil else {
            return nil
        }
        let stage = MigrationStage(
            hasPassword: tables.passwords[session.accountID] != nil,
            hasPasskey: tables.passkeys.contains { $0.accountID == session.accountID })
        return LiveSessionFacts(
            sessionID: session.id, accountID: session.accountID, method: session.method,
            userVerified: session.userVerified, createdAt: session.createdAt, expiresAt: session.expiresAt,
            stage: stage)
    }
}
