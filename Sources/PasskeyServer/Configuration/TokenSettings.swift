internal import Foundation
internal import PasskeyApplication

/// (v4) The tokens for the product's other services: `DATA_ENCRYPTION_KEY`, `TOKEN_*` and
/// `INTROSPECTION_CLIENTS` (spec v4, "Configuration").
struct TokenSettings: Sendable {
    /// 32 bytes; nil: tokens off (503 `tokens-unavailable`, an empty key set).
    var dataEncryptionKey: [UInt8]?
    var policy: TokenPolicy
    /// The services allowed to introspect; empty: introspection off (404).
    var introspectionClients: [(id: String, secret: String)] = []

    /// Tokens off, as without the variables.
    static func off(issuer: String) -> TokenSettings {
        TokenSettings(
            dataEncryptionKey: nil,
            policy: TokenPolicy(issuer: issuer, audiences: [issuer], lifetime: 300, rotationInterval: 30 * 86_400))
    }

    /// At least this many characters in an introspection client's secret.
    static let minimumClientSecretLength = 32

    /// Reads the variables; `defaultIssuer` is the first of `PASSKEY_ORIGINS`.
    static func load(
        _ env: [String: String], defaultIssuer: String,
        integer: (String, Int, ClosedRange<Int>) throws(ConfigurationError) -> Int
    ) throws(ConfigurationError) -> TokenSettings {
        let key = try secret(env, "DATA_ENCRYPTION_KEY").map { (text: String) throws(ConfigurationError) -> [UInt8] in
            guard let bytes = Data(base64Encoded: text).map(Array.init) ?? base64URL(text), bytes.count == 32 else {
                throw ConfigurationError(
                    variable: "DATA_ENCRYPTION_KEY",
                    problem: "must be 32 bytes in base64 (e.g. openssl rand -base64 32)")
            }
            return bytes
        }
        let issuer = nonEmpty(env["TOKEN_ISSUER"]) ?? defaultIssuer
        let audiences = (nonEmpty(env["TOKEN_AUDIENCES"]) ?? issuer).split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for audience in audiences where audience.utf8.count > 256 || audience.contains(where: \.isNewline) {
            throw ConfigurationError(variable: "TOKEN_AUDIENCES", problem: "an audience of at most 256 characters each")
        }
        let lifetime = try integer("TOKEN_LIFETIME_SECONDS", 300, 30...3600)
        let rotationDays = try integer("TOKEN_KEY_ROTATION_DAYS", 30, 1...365)
        var clients: [(id: String, secret: String)] = []
        for entry in (try secret(env, "INTROSPECTION_CLIENTS") ?? "").split(separator: ",") {
            let pair = entry.trimmingCharacters(in: .whitespaces)
            guard let colon = pair.firstIndex(of: ":"), colon != pair.startIndex else {
                throw ConfigurationError(variable: "INTROSPECTION_CLIENTS", problem: "each entry must be id:secret")
            }
            let id = String(pair[..<colon])
            let clientSecret = String(pair[pair.index(after: colon)...])
            guard clientSecret.count >= minimumClientSecretLength, clientSecret.utf8.count <= 512 else {
                throw ConfigurationError(
                    variable: "INTROSPECTION_CLIENTS",
                    problem: "the secret of \(id) must be \(minimumClientSecretLength) to 512 characters")
            }
            guard !clients.contains(where: { $0.id == id }) else {
                throw ConfigurationError(variable: "INTROSPECTION_CLIENTS", problem: "\(id) is listed twice")
            }
            clients.append((id, clientSecret))
        }
        var settings = TokenSettings(
            dataEncryptionKey: key,
            policy: TokenPolicy(
                issuer: issuer, audiences: audiences, lifetime: TimeInterval(lifetime),
                rotationInterval: TimeInterval(rotationDays) * 86_400))
        settings.introspectionClients = clients
        return settings
    }

    /// `NAME`, or the contents of the file `NAME_FILE` (trimmed); both set is an error.
    private static func secret(_ env: [String: String], _ name: String) throws(ConfigurationError) -> String? {
        let direct = nonEmpty(env[name])
        guard let path = nonEmpty(env[name + "_FILE"]) else { return direct }
        guard direct == nil else {
            throw ConfigurationError(variable: name, problem: "set \(name) or \(name)_FILE, not both")
        }
        guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ConfigurationError(variable: name + "_FILE", problem: "cannot read \(path)")
        }
        return nonEmpty(contents)
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }

    private static func base64URL(_ text: String) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map(Array.init)
    }
}
