/// A ceremony, under its one name: `PasskeyAuthentication` in the log's `[…]`, and the same in
/// snake case (`passkey_authentication`) as the metric's `ceremony` label.
struct Ceremony: Sendable {
    let name: String

    var metricName: String {
        var out = ""
        for (index, character) in name.enumerated() {
            if character.isUppercase, index > 0 { out.append("_") }
            out.append(contentsOf: character.lowercased())
        }
        return out
    }

    static let passwordAuthentication = Ceremony(name: "PasswordAuthentication")
    static let passkeyRegistration = Ceremony(name: "PasskeyRegistration")
    static let passkeyAccountRegistration = Ceremony(name: "PasskeyAccountRegistration")
    static let passkeyAuthentication = Ceremony(name: "PasskeyAuthentication")
    static let recoveryAuthentication = Ceremony(name: "RecoveryAuthentication")
}
