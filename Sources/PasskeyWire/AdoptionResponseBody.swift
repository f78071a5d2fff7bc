public import Foundation

/// `GET /v1/operator/adoption` and `passkey-server adoption --json` (spec v3, "Adoption, for
/// operators"): the accounts by stage now, one entry per UTC day of the window, the upgrade rate.
public struct AdoptionResponseBody: Codable, Sendable, Hashable {
    public let generatedAt: Date
    public let accounts: Accounts
    public let days: [Day]
    public let upgrade: Upgrade

    public init(generatedAt: Date, accounts: Accounts, days: [Day], upgrade: Upgrade) {
        self.generatedAt = generatedAt
        self.accounts = accounts
        self.days = days
        self.upgrade = upgrade
    }

    public struct Accounts: Codable, Sendable, Hashable {
        public let total: Int
        public let passwordOnly: Int
        public let passwordAndPasskey: Int
        public let passkeyOnly: Int
        public let emailVerified: Int

        public init(total: Int, passwordOnly: Int, passwordAndPasskey: Int, passkeyOnly: Int, emailVerified: Int) {
            self.total = total
            self.passwordOnly = passwordOnly
            self.passwordAndPasskey = passwordAndPasskey
            self.passkeyOnly = passkeyOnly
            self.emailVerified = emailVerified
        }
    }

    public struct Day: Codable, Sendable, Hashable {
        /// `YYYY-MM-DD`, a UTC day.
        public let date: String
        public let signIns: SignIns
        public let passkeysAdded: PasskeysAdded
        public let accountsCreated: AccountsCreated
        public let passwordsRemoved: Int

        public init(
            date: String, signIns: SignIns, passkeysAdded: PasskeysAdded, accountsCreated: AccountsCreated,
            passwordsRemoved: Int
        ) {
            self.date = date
            self.signIns = signIns
            self.passkeysAdded = passkeysAdded
            self.accountsCreated = accountsCreated
            self.passwordsRemoved = passwordsRemoved
        }
    }

    public struct SignIns: Codable, Sendable, Hashable {
        public let password: Int
        public let passkey: Int
        public let recovery: Int
        public let email: Int

        public init(password: Int, passkey: Int, recovery: Int, email: Int) {
            self.password = password
            self.passkey = passkey
            self.recovery = recovery
            self.email = email
        }
    }

    public struct PasskeysAdded: Codable, Sendable, Hashable {
        public let modal: Int
        public let conditional: Int
        public let signUp: Int

        public init(modal: Int, conditional: Int, signUp: Int) {
            self.modal = modal
            self.conditional = conditional
            self.signUp = signUp
        }
    }

    public struct AccountsCreated: Codable, Sendable, Hashable {
        public let password: Int
        public let passkey: Int

        public init(password: Int, passkey: Int) {
            self.password = password
            self.passkey = passkey
        }
    }

    public struct Upgrade: Codable, Sendable, Hashable {
        public let passwordSignIns: Int
        public let followedByPasskey: Int
        /// `followedByPasskey / passwordSignIns`, 0 when there were none.
        public let rate: Double

        public init(passwordSignIns: Int, followedByPasskey: Int, rate: Double) {
            self.passwordSignIns = passwordSignIns
            self.followedByPasskey = followedByPasskey
            self.rate = rate
        }
    }
}
