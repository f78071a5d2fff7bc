/// A ceremony, under its one name: `PasskeyAuthentication` in the log's `[…]`, and the same in
/// snake case (`passkey_authentication`) as the metric's `ceremony` label.
struct Ceremony: Sendable {
    let name: String
    /// Derived once here, not on every request of the ceremony.
    let metricName: String

    init(name: String) {
        self.name = name
        var snake = ""
        for (index, character) in name.enumerated() {
            if character.isUppercase, index > 0 { snake.append("_") }
            snake.append(contentsOf: character.lowercased())
        }
        metricName = snake
    }

    static let passwordAuthentication = Ceremony(name: "PasswordAuthentication")
    static let passkeyRegistration = Ceremony(name: "PasskeyRegistration")
    static let passkeyAccountRegistration = Ceremony(name: "PasskeyAccountRegistration")
    static let passkeyAuthentication = Ceremony(name: "PasskeyAuthentication")
    static let recoveryAuthentication = Ceremony(name: "RecoveryAuthentication")
}
