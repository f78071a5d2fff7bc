package import Foundation

/// The operators' adoption figures (spec v3, "Adoption, for operators"): how far the accounts
/// have come from ① password only through ② both to ③ passkey only, and what happened per UTC
/// day of the window, all read from the activity log (and the credentials held now).
package struct AdoptionFigures: Hashable, Sendable {
    package var generatedAt: Date
    package var accounts: AccountStages
    /// One entry per UTC day of the window, oldest first, zeros included.
    package var days: [Day]
    package var upgrade: Upgrade

    package init(generatedAt: Date, accounts: AccountStages, days: [Day], upgrade: Upgrade) {
        self.generatedAt = generatedAt
        self.accounts = accounts
        self.days = days
        self.upgrade = upgrade
    }

    /// What one UTC day's events counted.
    package struct Day: Hashable, Sendable {
        package let date: UTCDay
        /// `sign-in` events by method.
        package var signIns = SignIns()
        /// `passkey.added` events by method.
        package var passkeysAdded = PasskeysAdded()
        /// `account.created` events by method; an import (`passkey-server import-passwords`)
        /// counts as `password`, the only way in such an account has.
        package var accountsCreated = AccountsCreated()
        /// `password.removed` events (a take-back, `account.reclaimed`, is not one).
        package var passwordsRemoved = 0

        package init(date: UTCDay) { self.date = date }
    }

    package struct SignIns: Hashable, Sendable {
        package var password = 0
        package var passkey = 0
        package var recovery = 0
        package var email = 0
        package init() {}
    }

    package struct PasskeysAdded: Hashable, Sendable {
        package var modal = 0
        package var conditional = 0
        package var signUp = 0
        package init() {}
    }

    package struct AccountsCreated: Hashable, Sendable {
        package var password = 0
        package var passkey = 0
        package init() {}
    }

    /// Password sign-ins of accounts that had no passkey then, over the window, and how many of
    /// those sessions added a passkey: whether Automatic Passkey Upgrade works for the users.
    package struct Upgrade: Hashable, Sendable {
        package var passwordSignIns: Int
        package var followedByPasskey: Int

        package init(passwordSignIns: Int, followedByPasskey: Int) {
            self.passwordSignIns = passwordSignIns
            self.followedByPasskey = followedByPasskey
        }

        /// `followedByPasskey / passwordSignIns`, 0 when there were none.
        package var rate: Double {
            passwordSignIns == 0 ? 0 : Double(followedByPasskey) / Double(passwordSignIns)
        }
    }
}
