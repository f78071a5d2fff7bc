internal import Foundation
internal import PasskeyClient

/// Who is signed in, as the screens show it: the app's own value, built from the client's
/// session so no view or presenter holds a token.
struct SignedInUser: Sendable, Hashable {
    /// How this session signed in (the server's `method`).
    enum Method: String, Sendable, Hashable {
        case password
        case passkey
        case recovery
        case email
        /// A method this version of the app does not know yet.
        case other
    }

    let accountID: String
    let displayName: String
    let method: Method

    init(accountID: String, displayName: String, method: Method) {
        self.accountID = accountID
        self.displayName = displayName
        self.method = method
    }

    init(_ session: PasskeySession) {
        self.init(
            accountID: session.accountID, displayName: session.displayName,
            method: Method(rawValue: session.method) ?? .other)
    }
}
