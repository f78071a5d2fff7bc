internal import Foundation
package import PasskeyDomain

/// A session made before its account is known: `stored(for:)` inside the transaction that finds
/// the account, `issued(for:)` once it is known.
package struct PreparedSession: Sendable {
    let token: SessionToken
    let id: SessionID
    let method: AuthenticationMethod
    let createdAt: Date
    let expiresAt: Date

    package func stored(for account: Account) -> AuthenticationSession {
        AuthenticationSession(
            id: id, accountID: account.id, tokenDigest: token.digest, method: method, createdAt: createdAt,
            expiresAt: expiresAt)
    }

    package func issued(for account: Account) -> IssuedSession {
        IssuedSession(accessToken: token.token, expiresAt: expiresAt, account: account, method: method)
    }
}
