import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport

extension ActiveSession {
    /// A live session of `account` that signed in with `method` at `createdAt`.
    static func signedIn(
        _ account: Account = DomainFixtures.account(), method: AuthenticationMethod = .password, at createdAt: Date
    ) -> ActiveSession {
        ActiveSession(
            session: DomainFixtures.session(accountID: account.id, method: method, createdAt: createdAt),
            account: account)
    }
}
