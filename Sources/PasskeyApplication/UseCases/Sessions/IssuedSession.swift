package import Foundation
package import PasskeyDomain

/// A session just created: the bearer token (shown once) and what the client needs with it.
package struct IssuedSession: Sendable {
    package let accessToken: String
    package let expiresAt: Date
    package let account: Account
    package let method: AuthenticationMethod

    package init(accessToken: String, expiresAt: Date, account: Account, method: AuthenticationMethod) {
        self.accessToken = accessToken
        self.expiresAt = expiresAt
        self.account = account
        self.method = method
    }
}
