internal import Foundation
internal import PasskeyClient

/// The account screen's content: the app's own values, so the Presenter and the views never
/// see a wire type, and credential IDs are `Data` ready for rename and delete.
struct AccountSummary: Sendable, Hashable {
    /// One passkey row.
    struct PasskeyItem: Sendable, Hashable, Identifiable {
        let credentialID: Data
        let name: String
        let createdAt: Date
        let lastUsedAt: Date?
        /// Synced by a credential manager (iCloud Keychain, …): survives the loss of this device.
        let isSynced: Bool

        var id: Data { credentialID }
    }

    /// Whether stage ③ ("remove the password") can be offered, and what is missing if not. The
    /// server checks the same conditions in the same order (spec.md, `DELETE /v1/account/password`);
    /// the app only uses them to show the button or say what to do first.
    enum PasswordRemoval: Sendable, Hashable {
        /// The account has no password (stage ③ already, or a passkey-only account).
        case noPassword
        /// No passkey of the account has signed in yet: sign in with one first.
        case needsPasskeySignIn
        /// No recovery is set up: create recovery codes (or verify the email address) first.
        case needsRecovery
        case allowed
    }

    let email: String
    let displayName: String
    let hasPassword: Bool
    let emailVerified: Bool
    let passkeys: [PasskeyItem]
    let recoveryCodesRemaining: Int

    var passwordRemoval: PasswordRemoval {
        if !hasPassword { return .noPassword }
        if !passkeys.contains(where: { $0.lastUsedAt != nil }) { return .needsPasskeySignIn }
        if recoveryCodesRemaining == 0 && !emailVerified { return .needsRecovery }
        return .allowed
    }
}

extension AccountSummary {
    /// The summary of the client's account.
    init(_ account: PasskeyAccount) {
        self.init(
            email: account.email, displayName: account.displayName, hasPassword: account.hasPassword,
            emailVerified: account.emailVerified, passkeys: account.passkeys.map(PasskeyItem.init),
            recoveryCodesRemaining: account.recoveryCodesRemaining)
    }
}

extension AccountSummary.PasskeyItem {
    init(_ passkey: Passkey) {
        self.init(
            credentialID: passkey.credentialID, name: passkey.name,
            createdAt: passkey.createdAt, lastUsedAt: passkey.lastUsedAt, isSynced: passkey.backupState)
    }
}
