import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport

/// An account with a verified address, a password, two sessions and notices on: what the support
/// desk's use cases act on in memory.
struct SupportFixture {
    static let agent = SupportAgentName("Mika (desk 3)")!

    let store = InMemoryStore()
    let clock = FixedClock()
    let account: Account
    let notifier: SecurityNotifier

    init(verified: Bool = true) {
        account = store.addAccount(email: "riku@example.com", verified: verified, passwordHash: "h")
        var policy = PasskeyPolicy()
        policy.mail = MailPolicy(enabled: true)
        notifier = SecurityNotifier(policy: policy, random: SequentialRandomGenerator())
    }

    /// The live sessions of the account at the clock's time.
    var liveSessions: [AuthenticationSession] {
        store.tables.sessions.values.filter {
            $0.accountID == account.id && $0.revokedAt == nil && $0.expiresAt > clock.now
        }
    }

    var lock: AccountLock? { store.tables.locks[account.id] }
}
