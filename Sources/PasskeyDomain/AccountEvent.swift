package import Foundation

/// Identifies one row of the activity log.
package struct AccountEventID: Hashable, Sendable, CustomStringConvertible {
    package let uuid: UUID
    package init(_ uuid: UUID = UUID()) { self.uuid = uuid }
    package var description: String { uuid.uuidString.lowercased() }
}

/// One entry of an account's activity log (spec v3, "Account activity"): a sign-in, a failed
/// sign-in of the account, or a security-relevant change, written in the same transaction as
/// the change. It never carries a secret: no password, token, code or recovery code.
package struct AccountEvent: Hashable, Sendable {
    package let id: AccountEventID
    package let accountID: AccountID
    package let activity: AccountActivity
    package let occurredAt: Date
    /// The resolved client address (`TRUSTED_PROXIES`), or `command line`; (v4) nil for an
    /// operator's action (the user sees who, not from where).
    package let clientAddress: String?
    /// The request's `User-Agent`, at most 256 Unicode scalars (code points, what the column's
    /// `char_length` counts); empty when it sent none; (v4) nil for an operator's action.
    package let userAgent: String?
    /// (v4) The operator who did it (the support desk); nil when the user did.
    package let actor: SupportAgentName?
    /// For a sign-in, the session it created; otherwise the session that made the change (nil
    /// for changes made without one: the command line, a failed sign-in, an email verification
    /// by sign-up code).
    package let sessionID: SessionID?

    package static let maximumUserAgentLength = 256

    package init(
        id: AccountEventID, accountID: AccountID, activity: AccountActivity, occurredAt: Date,
        clientAddress: String, userAgent: String?, sessionID: SessionID?
    ) {
        self.id = id
        self.accountID = accountID
        self.activity = activity
        self.occurredAt = occurredAt
        self.clientAddress = clientAddress
        self.actor = nil
        // Cut by Unicode scalars, not by characters: a character of many combining marks counts
        // as one `Character` but as each of its scalars in the column, and a cut by characters let
        // an event overflow the column (security round 4, finding 6).
        // A value of at most that many UTF-8 bytes has at most that many scalars (the usual case,
        // kept without a copy: every sign-in makes an event).
        let agent = userAgent ?? ""
        self.userAgent =
            agent.utf8.count <= Self.maximumUserAgentLength
            ? agent : String(String.UnicodeScalarView(agent.unicodeScalars.prefix(Self.maximumUserAgentLength)))
        self.sessionID = sessionID
    }

    /// (v4) An operator's action on the account: no client address, user agent or session.
    package init(
        id: AccountEventID, accountID: AccountID, activity: AccountActivity, occurredAt: Date,
        actor: SupportAgentName
    ) {
        self.id = id
        self.accountID = accountID
        self.activity = activity
        self.occurredAt = occurredAt
        self.clientAddress = nil
        self.userAgent = nil
        self.actor = actor
        self.sessionID = nil
    }

    /// An event read back from the log, as it was written.
    package init(
        id: AccountEventID, accountID: AccountID, activity: AccountActivity, occurredAt: Date,
        clientAddress: String?, userAgent: String?, sessionID: SessionID?, actor: SupportAgentName?
    ) {
        self.id = id
        self.accountID = accountID
        self.activity = activity
        self.occurredAt = occurredAt
        self.clientAddress = clientAddress
        self.userAgent = userAgent
        self.sessionID = sessionID
        self.actor = actor
    }

    package var kind: AccountActivity.Kind { activity.kind }
}

/// What an event says happened; `kind`, `method` and `credentialID` are its columns.
package enum AccountActivity: Hashable, Sendable {
    case accountCreated(AccountCreationMethod)
    case emailVerified
    case emailChanged
    /// A pre-registered account taken back by the owner of its address (email sign-in).
    case accountReclaimed
    /// `credentialID` is the passkey that signed in (passkey sign-ins only).
    case signIn(AuthenticationMethod, credentialID: CredentialID?)
    case signInFailed(FailedSignInMethod)
    case passkeyAdded(PasskeyAdditionMethod, credentialID: CredentialID)
    case passkeyRenamed(credentialID: CredentialID)
    case passkeyDeleted(credentialID: CredentialID)
    case passwordSet
    case passwordRemoved
    case recoveryCodesCreated
    /// By the support desk; `issuer` is the `--issued-by` name when one was given.
    case recoveryCodeIssued(issuer: SupportAgentName?)
    case sessionsEnded(SessionsEndedScope)
    /// (v4) The session signed itself out (`DELETE /v1/sessions/current`); ending one's own
    /// session by its ID stays `sessionsEnded(.one)`.
    case signedOut
    /// (v4) The support desk locked the account; `reason` is shown to the user.
    case accountLocked(reason: LockReason)
    /// (v4) The support desk unlocked the account.
    case accountUnlocked
    /// (v4) Webhook only (never in the activity, which goes with the account): the account was
    /// deleted.
    case accountDeleted
    /// (v4) Webhook only: the transaction moved an existing account from one migration stage to
    /// another (not sent when the account is created or deleted).
    case stageChanged(from: MigrationStage, to: MigrationStage)

    /// The `kind` column and wire value.
    package enum Kind: String, CaseIterable, Hashable, Sendable {
        case accountCreated = "account.created"
        case emailVerified = "email.verified"
        case emailChanged = "email.changed"
        case accountReclaimed = "account.reclaimed"
        case signIn = "sign-in"
        case signInFailed = "sign-in.failed"
        case passkeyAdded = "passkey.added"
        case passkeyRenamed = "passkey.renamed"
        case passkeyDeleted = "passkey.deleted"
        case passwordSet = "password.set"
        case passwordRemoved = "password.removed"
        case recoveryCodesCreated = "recovery-codes.created"
        case recoveryCodeIssued = "recovery-code.issued"
        case sessionsEnded = "sessions.ended"
        case signedOut = "signed-out"
        case accountLocked = "account.locked"
        case accountUnlocked = "account.unlocked"
        case accountDeleted = "account.deleted"
        case stageChanged = "stage.changed"

        /// (v4) Kinds that only the event log holds (webhooks, the events API), never the activity.
        package var isWebhookOnly: Bool { self == .accountDeleted || self == .stageChanged }
    }

    package var kind: Kind {
        switch self {
        case .accountCreated: .accountCreated
        case .emailVerified: .emailVerified
        case .emailChanged: .emailChanged
        case .accountReclaimed: .accountReclaimed
        case .signIn: .signIn
        case .signInFailed: .signInFailed
        case .passkeyAdded: .passkeyAdded
        case .passkeyRenamed: .passkeyRenamed
        case .passkeyDeleted: .passkeyDeleted
        case .passwordSet: .passwordSet
        case .passwordRemoved: .passwordRemoved
        case .recoveryCodesCreated: .recoveryCodesCreated
        case .recoveryCodeIssued: .recoveryCodeIssued
        case .sessionsEnded: .sessionsEnded
        case .signedOut: .signedOut
        case .accountLocked: .accountLocked
        case .accountUnlocked: .accountUnlocked
        case .accountDeleted: .accountDeleted
        case .stageChanged: .stageChanged
        }
    }

    /// The `method` column and wire value, for the kinds that have one.
    package var method: String? {
        switch self {
        case .accountCreated(let method): method.rawValue
        case .signIn(let method, _): method.rawValue
        case .signInFailed(let method): method.rawValue
        case .passkeyAdded(let method, _): method.rawValue
        case .recoveryCodeIssued(let issuer): issuer?.value
        case .sessionsEnded(let scope): scope.rawValue
        case .emailVerified, .emailChanged, .accountReclaimed, .passkeyRenamed, .passkeyDeleted, .passwordSet,
            .passwordRemoved, .recoveryCodesCreated, .signedOut, .accountLocked, .accountUnlocked, .accountDeleted,
            .stageChanged:
            nil
        }
    }

    /// (v4) The `reason` column and wire value: the lock's reason, for `account.locked`.
    package var reason: LockReason? {
        if case .accountLocked(let reason) = self { reason } else { nil }
    }

    /// The passkey concerned, for the kinds that name one.
    /// (v4) The stages of `stageChanged`.
    package var stageChange: (from: MigrationStage, to: MigrationStage)? {
        if case .stageChanged(let from, let to) = self { (from, to) } else { nil }
    }

    package var credentialID: CredentialID? {
        switch self {
        case .signIn(_, let credentialID): credentialID
        case .passkeyAdded(_, let credentialID), .passkeyRenamed(let credentialID), .passkeyDeleted(let credentialID):
            credentialID
        default: nil
        }
    }

    /// Rebuilds the activity from its columns; nil when they do not fit together (a row this
    /// version did not write).
    package init?(kind: Kind, method: String?, credentialID: CredentialID?, reason: String? = nil) {
        switch kind {
        case .accountCreated:
            guard let method = method.flatMap(AccountCreationMethod.init(rawValue:)) else { return nil }
            self = .accountCreated(method)
        case .emailVerified: self = .emailVerified
        case .emailChanged: self = .emailChanged
        case .accountReclaimed: self = .accountReclaimed
        case .signIn:
            guard let method = method.flatMap(AuthenticationMethod.init(rawValue:)) else { return nil }
            self = .signIn(method, credentialID: credentialID)
        case .signInFailed:
            guard let method = method.flatMap(FailedSignInMethod.init(rawValue:)) else { return nil }
            self = .signInFailed(method)
        case .passkeyAdded:
            guard let method = method.flatMap(PasskeyAdditionMethod.init(rawValue:)), let credentialID else {
                return nil
            }
            self = .passkeyAdded(method, credentialID: credentialID)
        case .passkeyRenamed:
            guard let credentialID else { return nil }
            self = .passkeyRenamed(credentialID: credentialID)
        case .passkeyDeleted:
            guard let credentialID else { return nil }
            self = .passkeyDeleted(credentialID: credentialID)
        case .passwordSet: self = .passwordSet
        case .passwordRemoved: self = .passwordRemoved
        case .recoveryCodesCreated: self = .recoveryCodesCreated
        case .recoveryCodeIssued:
            if let method {
                guard let issuer = SupportAgentName(method) else { return nil }
                self = .recoveryCodeIssued(issuer: issuer)
            } else {
                self = .recoveryCodeIssued(issuer: nil)
            }
        case .sessionsEnded:
            guard let scope = method.flatMap(SessionsEndedScope.init(rawValue:)) else { return nil }
            self = .sessionsEnded(scope)
        case .signedOut: self = .signedOut
        case .accountLocked:
            guard let reason = reason.flatMap({ LockReason(stored: $0) }) else { return nil }
            self = .accountLocked(reason: reason)
        case .accountUnlocked: self = .accountUnlocked
        case .accountDeleted: self = .accountDeleted
        // Its stages are not columns of the activity: it is never read back from there.
        case .stageChanged: return nil
        }
    }
}

/// How an account came to be (`account.created`'s method; `accountsCreated` of the adoption figures).
package enum AccountCreationMethod: String, Hashable, Sendable, CaseIterable {
    case password
    case passkey
    /// Moved in from an existing system (`passkey-server import-passwords`).
    case `import`
}

/// What a failed sign-in of an existing account tried.
package enum FailedSignInMethod: String, Hashable, Sendable, CaseIterable {
    case password
    /// A recovery code of the user's set or an operator code.
    case recovery
    /// A mailed sign-in code.
    case email
}

/// How a passkey was added (`passkey.added`'s method; `passkeysAdded` of the adoption figures).
package enum PasskeyAdditionMethod: String, Hashable, Sendable, CaseIterable {
    /// The "add a passkey" button of a signed-in account.
    case modal
    /// Automatic Passkey Upgrade right after a password sign-in.
    case conditional
    /// Created with the account (a new account with a passkey).
    case signUp = "sign-up"
}

/// Which sessions the user ended (`sessions.ended`), or (v4) that the support desk did.
package enum SessionsEndedScope: String, Hashable, Sendable, CaseIterable {
    /// One named session.
    case one
    /// Every session but the one making the request ("this wasn't me").
    case others
    /// (v4) Every session, by an operator (`DELETE /v1/operator/accounts/{accountID}/sessions`).
    case support
}
