public import PasskeyWire

/// The contract's answers under the names an app uses (they are the server's own wire types).
public typealias PasskeySession = SessionResponseBody
public typealias PasskeyAccount = AccountResponseBody
public typealias Passkey = PasskeyResponseBody
public typealias PasskeySessionInfo = SessionInfoResponseBody
public typealias PasskeyRecoveryCodes = RecoveryCodesResponseBody
public typealias PasskeyErrorCode = ErrorCode
/// (v3) A page of the account's activity and one of its events.
public typealias PasskeyActivityPage = ActivityPageResponseBody
public typealias PasskeyActivityEvent = AccountEventResponseBody
