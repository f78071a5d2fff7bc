internal import Foundation

// Secrets never print: `print(session)`, string interpolation, `dump`, `po` in the debugger and
// SwiftUI previews go through these, and each shows what the value is without its token or
// codes. (The values themselves are unchanged: `session.accessToken` is still the token.)

extension PasskeySession: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "PasskeySession(accountID: \(accountID), method: \(method), expiresAt: \(expiresAt), accessToken: <redacted>)"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "accessToken": Redacted(), "tokenType": tokenType, "expiresAt": expiresAt, "accountID": accountID,
                "displayName": displayName, "method": method,
            ], displayStyle: .struct)
    }
}

extension PasskeyStoredToken: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "PasskeyStoredToken(expiresAt: \(expiresAt), accessToken: <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["accessToken": Redacted(), "expiresAt": expiresAt], displayStyle: .struct)
    }
}

extension PasskeyRecoveryCodes: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "PasskeyRecoveryCodes(\(codes.count) codes <redacted>, createdAt: \(createdAt))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(
            self, children: ["codes": Redacted(count: codes.count), "createdAt": createdAt], displayStyle: .struct)
    }
}

/// What a mirror shows in place of a secret.
struct Redacted: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    var count: Int?
    var description: String { count.map { "<\($0) redacted>" } ?? "<redacted>" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
