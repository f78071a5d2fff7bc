internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyWire

/// (v4) `passkey-server keys list|rotate|revoke KID`: the token signing keys (spec v4, "Keys").
/// No private key is ever printed; `list` shows IDs, dates and what each key does now.
enum KeysCommand {
    static let usage = """
        usage: passkey-server keys list | rotate | revoke KID

          list          every signing key: its kid, state (signing, next, retired, expired,
                        revoked), when it was made, signs from, retired and revoked
          rotate        make the next key now; it signs once published for 600 s (when a key is
                        already on its way, prints that one)
          revoke KID    take a key out of the key set at once (its tokens stop verifying and
                        introspect as inactive); when it was signing, a new key signs at once
        needs DATA_ENCRYPTION_KEY (or DATA_ENCRYPTION_KEY_FILE) for rotate and revoke;
        exit 1 when the database cannot answer or the key is unknown, 2 on a usage error
        """

    static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        if arguments.contains("--help") || arguments.isEmpty {
            Console.out(usage)
            return arguments.isEmpty ? 2 : 0
        }
        let action = arguments[0]
        let rest = Array(arguments.dropFirst())
        switch (action, rest.count) {
        case ("list", 0), ("rotate", 0): break
        case ("revoke", 1): break
        default:
            Console.error(
                "passkey-server: keys: \(action) \(rest.joined(separator: " ")) is not a keys command\n\(usage)")
            return 2
        }
        guard let root = CompositionRoot.forCommand(environment) else { return 1 }
        defer { root.shutdown() }
        let useCases = root.useCases
        if action == "list" {
            // Listing needs no DATA_ENCRYPTION_KEY: nothing is opened.
            let rotation = SigningKeyRotationUseCase(
                store: root.dependencies.store, format: root.dependencies.tokenFormat,
                sealer: root.dependencies.sealer ?? NoSealer(), policy: useCases.tokens.policy,
                clock: root.dependencies.clock, random: root.dependencies.random)
            do {
                let keys = try await rotation.list(repository: root.dependencies.signingKeys)
                Console.out(table(keys))
                return 0
            } catch {
                Console.error("passkey-server: keys list: \(describe(error))")
                return 1
            }
        }
        guard let rotation = useCases.signingKeyRotation else {
            Console.error("passkey-server: keys \(action): DATA_ENCRYPTION_KEY is not set, so tokens are off")
            return 1
        }
        do {
            if action == "rotate" {
                let made = try await rotation.rotate()
                Console.out(
                    "next key \(made.key.id) signs from \(WireJSON.timestamp(made.key.signsFrom))"
                        + (made.retiring.map { "; \($0) stops signing then" } ?? ""))
                return 0
            }
            guard let id = SigningKeyID(rest[0]) else {
                Console.error("passkey-server: keys revoke: \(rest[0]) is not a key ID")
                return 1
            }
            let replacement = try await rotation.revoke(id)
            Console.out(
                "revoked \(id)" + (replacement.map { "; \($0.key.id) signs from now" } ?? ""))
            return 0
        } catch {
            Console.error("passkey-server: keys \(action): \(describe(error))")
            return 1
        }
    }

    static func table(_ keys: [(key: SigningKey, state: SigningKeyState)]) -> String {
        var lines = [
            "kid                     state     created               signs from            retired               revoked"
        ]
        func time(_ date: Date?) -> String { date.map(WireJSON.timestamp) ?? "-" }
        for (key, state) in keys {
            lines.append(
                [
                    key.id.value.padding(toLength: 23, withPad: " ", startingAt: 0),
                    state.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0),
                    time(key.createdAt).padding(toLength: 21, withPad: " ", startingAt: 0),
                    time(key.signsFrom).padding(toLength: 21, withPad: " ", startingAt: 0),
                    time(key.retiredAt).padding(toLength: 21, withPad: " ", startingAt: 0), time(key.revokedAt),
                ].joined(separator: " "))
        }
        if keys.isEmpty {
            lines.append("(no keys: the server makes the first when it starts with DATA_ENCRYPTION_KEY)")
        }
        return lines.joined(separator: "\n")
    }

    private static func describe(_ error: SigningKeyRotationError) -> String {
        switch error {
        case .unknownKey: "no such key (or revoked already)"
        case .unavailable: "the database is unavailable"
        case .internalFailure(let cause): cause.logText
        }
    }

    /// For `list`, which opens nothing.
    private struct NoSealer: SecretSealer {
        func seal(_ secret: [UInt8], context: String) throws(SecretSealingError) -> [UInt8] {
            throw SecretSealingError(cause: "no DATA_ENCRYPTION_KEY")
        }
        func open(_ box: [UInt8], context: String) -> [UInt8]? { nil }
    }
}
