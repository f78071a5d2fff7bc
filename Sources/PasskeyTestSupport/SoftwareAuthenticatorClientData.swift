internal import Foundation
internal import PasskeyDomain

/// The members of a clientDataJSON the tests control; serialised in a fixed order.
package struct SoftwareAuthenticatorClientData: Sendable {
    package var type: String
    /// The `challenge` member text (base64url of the challenge bytes by default).
    package var challenge: String
    package var origin: String
    package var crossOrigin: Bool? = false
    package var topOrigin: String?
    /// Extra members appended verbatim as `"key":"value"` (e.g. unknown members browsers add).
    package var extraMembers: [(String, String)] = []

    package init(type: String, challenge: [UInt8], origin: String) {
        self.type = type
        self.challenge = Base64URL.encode(challenge)
        self.origin = origin
    }

    /// The JSON bytes (as a browser would send them).
    package var json: [UInt8] {
        var members = [
            "\"type\":\(quoted(type))", "\"challenge\":\(quoted(challenge))", "\"origin\":\(quoted(origin))",
        ]
        if let crossOrigin { members.append("\"crossOrigin\":\(crossOrigin)") }
        if let topOrigin { members.append("\"topOrigin\":\(quoted(topOrigin))") }
        for (key, value) in extraMembers { members.append("\(quoted(key)):\(quoted(value))") }
        return Array(("{" + members.joined(separator: ",") + "}").utf8)
    }

    private func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data()
        let array = String(decoding: data, as: UTF8.self)
        return String(array.dropFirst().dropLast())
    }
}
