package import Foundation

/// A security notice mailed to an account's verified address (spec v3, "Security notices"): what
/// happened, when, and from which client address. It never carries a password, token or code.
package struct SecurityNotice: Hashable, Sendable {
    package enum Kind: Hashable, Sendable {
        case passkeyAdded
        case passkeyDeleted
        case passwordSet
        case passwordRemoved
        case recoveryCodesCreated
        /// The support desk issued an operator recovery code (`passkey-server recovery-code`); the
        /// notice names neither the issuer nor the code.
        case recoveryCodeIssued
        /// A recovery sign-in: with a code of the user's set, an operator code, or by email.
        case recoverySignIn(RecoveryMethod)
        /// Sent to the old address; it does not name the new one (whoever reads the old mailbox
        /// must not learn where the account's mail goes now: security round 4, finding 10).
        case emailChanged
        case accountDeleted
        /// (v4) Support desk actions (spec v4, "Support desk"): the notice says the support desk
        /// did it, and neither names the operator nor gives the lock's reason.
        case accountLocked
        case accountUnlocked
        case sessionsEndedBySupport
        case passkeyDeletedBySupport

        /// Whether the support desk did it (the notice's "From" is the desk, not an address).
        package var isSupportAction: Bool {
            switch self {
            case .accountLocked, .accountUnlocked, .sessionsEndedBySupport, .passkeyDeletedBySupport,
                .recoveryCodeIssued:
                true
            default: false
            }
        }
    }

    package enum RecoveryMethod: String, Hashable, Sendable {
        case recoveryCode = "recovery-code"
        case operatorCode = "operator-code"
        case email
    }

    package let kind: Kind
    package let occurredAt: Date
    /// The resolved client address of the request (`TRUSTED_PROXIES`), or `command line` for a
    /// change made with the `passkey-server` command; (v4) nil for an operator's action.
    package let clientAddress: String?

    package init(kind: Kind, occurredAt: Date, clientAddress: String?) {
        self.kind = kind
        self.occurredAt = occurredAt
        self.clientAddress = clientAddress
    }
}
