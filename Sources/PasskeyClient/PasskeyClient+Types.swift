public import Foundation
internal import PasskeyWire

// The contract's answers as an app uses them: binary values (credential IDs, the user handle)
// are `Data`, as AuthenticationServices gives and takes them, never base64url text. Each is
// built from its wire body (PasskeyWire); a wire value that is not base64url where the contract
// says it is makes the call fail with `.unexpectedResponse` and the field in its `cause`.

/// A session from any sign-in; the client holds (and stores) its token.
public struct PasskeySession: Sendable, Hashable {
    public let accessToken: String
    /// `Bearer`.
    public let tokenType: String
    public let expiresAt: Date
    public let accountID: String
    public let displayName: String
    /// How it was signed in: `password`, `passkey`, `recovery`, `email`.
    public let method: String
}

/// One passkey of the signed-in account.
public struct Passkey: Sendable, Hashable {
    /// The credential ID, as `ASAuthorizationPlatformPublicKeyCredentialAssertion.credentialID`
    /// has it (give it to `renamePasskey(credentialID:to:)` or `deletePasskey(credentialID:)`).
    public let credentialID: Data
    public let name: String
    public let createdAt: Date
    public let lastUsedAt: Date?
    public let backupEligible: Bool
    public let backupState: Bool
    /// e.g. `["internal", "hybrid"]`.
    public let transports: [String]
    public let aaguid: String
    public let attestationFormat: String
}

/// The signed-in account.
public struct PasskeyAccount: Sendable, Hashable {
    public let accountID: String
    public let displayName: String
    public let email: String
    public let hasPassword: Bool
    public let passkeys: [Passkey]
    public let recoveryCodesRemaining: Int
    public let emailVerified: Bool
    /// The WebAuthn user handle (the `userID` of registrations and assertions), 16 bytes.
    public let userHandle: Data
}

/// One active session of the signed-in account.
public struct PasskeySessionInfo: Sendable, Hashable {
    /// Give it to `endSession(id:)`.
    public let sessionID: String
    public let method: String
    public let createdAt: Date
    public let expiresAt: Date
    /// The session of the token making the call.
    public let current: Bool
    /// The passkey that signed it in, for a passkey session.
    public let credentialID: Data?
}

/// (v3) One event of the account's activity.
public struct PasskeyActivityEvent: Sendable, Hashable {
    public let eventID: String
    /// e.g. `sign-in`, `password.set`.
    public let kind: String
    public let occurredAt: Date
    /// (v4) Nil for the support desk's actions (the user sees who, not from where).
    public let clientAddress: String?
    /// Empty when the client sent none; (v4) nil for the support desk's actions.
    public let userAgent: String?
    public let method: String?
    /// The passkey involved, when one was.
    public let credentialID: Data?
    public let sessionID: String?
    /// (v4) The support desk operator who did it ("by support (NAME)"); nil when the user did.
    public let actor: String?
    /// (v4) `account.locked`: why the support desk locked the account; else nil.
    public let reason: String?
}

/// (v3) A page of the account's activity, newest first.
public struct PasskeyActivityPage: Sendable, Hashable {
    public let events: [PasskeyActivityEvent]
    /// Give it as `before` for the next page; nil on the last one.
    public let next: String?
}

/// The ten recovery codes, shown once. They are secrets: `description`, `debugDescription` and
/// the mirror (`dump`, the debugger) show how many there are, never a code.
public struct PasskeyRecoveryCodes: Sendable, Hashable {
    public let codes: [String]
    public let createdAt: Date

    public init(codes: [String], createdAt: Date) {
        self.codes = codes
        self.createdAt = createdAt
    }
}

/// A new password account (`createPasswordAccount`): sign in to get a session.
public struct PasskeyCreatedAccount: Sendable, Hashable {
    public let accountID: String
    public let displayName: String

    public init(accountID: String, displayName: String) {
        self.accountID = accountID
        self.displayName = displayName
    }
}

// MARK: - From the wire

/// A client value built from the wire body the contract sends for it.
protocol WireDecodable: Sendable {
    associatedtype Wire: Decodable
    init(wire: Wire) throws(WireValueError)
}

/// A wire value the client cannot turn into its own (a credential ID that is not base64url).
struct WireValueError: Error {
    let description: String

    /// The bytes of a base64url field.
    static func bytes(_ text: String, field: String) throws(WireValueError) -> Data {
        guard let data = Data(base64URLEncoded: text) else {
            throw WireValueError(description: "\(field) is not base64url: \"\(text.prefix(64))\"")
        }
        return data
    }
}

extension Array: WireDecodable where Element: WireDecodable {
    init(wire: [Element.Wire]) throws(WireValueError) {
        var values: [Element] = []
        values.reserveCapacity(wire.count)
        for (index, body) in wire.enumerated() {
            do {
                values.append(try Element(wire: body))
            } catch {
                throw WireValueError(description: "[\(index)]: \(error.description)")
            }
        }
        self = values
    }
}

extension PasskeySession: WireDecodable {
    init(wire: SessionResponseBody) {
        self.init(
            accessToken: wire.accessToken, tokenType: wire.tokenType, expiresAt: wire.expiresAt,
            accountID: wire.accountID, displayName: wire.displayName, method: wire.method)
    }
}

extension PasskeyRecoveryCodes: WireDecodable {
    init(wire: RecoveryCodesResponseBody) { self.init(codes: wire.codes, createdAt: wire.createdAt) }
}

extension PasskeyCreatedAccount: WireDecodable {
    init(wire: AccountCreatedResponseBody) { self.init(accountID: wire.accountID, displayName: wire.displayName) }
}

extension Passkey: WireDecodable {
    init(wire: PasskeyResponseBody) throws(WireValueError) {
        self.init(
            credentialID: try WireValueError.bytes(wire.credentialID, field: "credentialID"), name: wire.name,
            createdAt: wire.createdAt, lastUsedAt: wire.lastUsedAt, backupEligible: wire.backupEligible,
            backupState: wire.backupState, transports: wire.transports, aaguid: wire.aaguid,
            attestationFormat: wire.attestationFormat)
    }
}

extension PasskeyAccount: WireDecodable {
    init(wire: AccountResponseBody) throws(WireValueError) {
        let passkeys: [Passkey]
        do {
            passkeys = try [Passkey](wire: wire.passkeys)
        } catch {
            throw WireValueError(description: "passkeys\(error.description)")
        }
        self.init(
            accountID: wire.accountID, displayName: wire.displayName, email: wire.email, hasPassword: wire.hasPassword,
            passkeys: passkeys, recoveryCodesRemaining: wire.recoveryCodesRemaining, emailVerified: wire.emailVerified,
            userHandle: try WireValueError.bytes(wire.userHandle, field: "userHandle"))
    }
}

extension PasskeySessionInfo: WireDecodable {
    init(wire: SessionInfoResponseBody) throws(WireValueError) {
        self.init(
            sessionID: wire.sessionID, method: wire.method, createdAt: wire.createdAt, expiresAt: wire.expiresAt,
            current: wire.current,
            credentialID: try wire.credentialID.map { text throws(WireValueError) in
                try WireValueError.bytes(text, field: "credentialID")
            })
    }
}

extension PasskeyActivityEvent: WireDecodable {
    init(wire: AccountEventResponseBody) throws(WireValueError) {
        self.init(
            eventID: wire.eventID, kind: wire.kind, occurredAt: wire.occurredAt, clientAddress: wire.clientAddress,
            userAgent: wire.userAgent, method: wire.method,
            credentialID: try wire.credentialID.map { text throws(WireValueError) in
                try WireValueError.bytes(text, field: "credentialID")
            },
            sessionID: wire.sessionID, actor: wire.actor, reason: wire.reason)
    }
}

extension PasskeyActivityPage: WireDecodable {
    init(wire: ActivityPageResponseBody) throws(WireValueError) {
        let events: [PasskeyActivityEvent]
        do {
            events = try [PasskeyActivityEvent](wire: wire.events)
        } catch {
            throw WireValueError(description: "events\(error.description)")
        }
        self.init(events: events, next: wire.next)
    }
}
