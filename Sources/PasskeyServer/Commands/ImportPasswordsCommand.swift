internal import Foundation
internal import PasskeyApplication

/// `passkey-server import-passwords FILE`: JSON lines `{email, displayName, passwordHash,
/// emailVerified?}`,
/// all or nothing (one transaction), progress on stderr. Hashes are kept as they are
/// (bcrypt, PBKDF2-SHA256, Argon2) and upgraded to Argon2id at each user's next sign-in.
enum ImportPasswordsCommand {
    static let usage = """
        usage: passkey-server import-passwords FILE

        FILE holds one JSON object per line: {"email": ..., "displayName": ..., "passwordHash": ...}
        with passwordHash a PHC string ($2a$/$2b$/$2y$ bcrypt, $pbkdf2-sha256$, $argon2id$), and an
        optional "emailVerified": true when the old system proved the address (no mail is sent).
        Every line is imported or none is (one transaction); progress goes to stderr.
        """

    /// At most this many lines (and 64 MiB) per file.
    static let maximumLines = 1_000_000
    static let maximumBytes = 64 << 20

    private struct Line: Decodable {
        let email: String
        let displayName: String
        let passwordHash: String
        /// (v3) Optional; an imported account is mailed nothing either way.
        let emailVerified: Bool?
    }

    static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        if arguments.contains("--help") {
            Console.out(usage)
            return 0
        }
        guard arguments.count == 1, let path = arguments.first else {
            Console.error(usage)
            return 2
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            Console.error("passkey-server: import-passwords: cannot read \(path)")
            return 1
        }
        guard data.count <= maximumBytes else {
            Console.error("passkey-server: import-passwords: \(path) is larger than 64 MiB; split it")
            return 1
        }
        var records: [PasswordImportRecord] = []
        for (index, raw) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let trimmed = raw.filter { $0 != UInt8(ascii: "\r") }
            if trimmed.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
            guard records.count < maximumLines else {
                Console.error("passkey-server: import-passwords: more than \(maximumLines) lines")
                return 1
            }
            guard let line = try? JSONDecoder().decode(Line.self, from: Data(trimmed)) else {
                Console.error(
                    "passkey-server: import-passwords: line \(index + 1) is not {email, displayName, passwordHash}; nothing imported"
                )
                return 1
            }
            records.append(
                PasswordImportRecord(
                    email: line.email, displayName: line.displayName, passwordHash: line.passwordHash,
                    emailVerified: line.emailVerified ?? false))
        }
        guard let root = CompositionRoot.forCommand(environment) else { return 1 }
        defer { root.shutdown() }
        let total = records.count
        let useCase = root.useCases.passwordImport
        do {
            let imported = try await useCase.execute(records) { done in
                Console.error("import-passwords: \(done)/\(total) written")
            }
            Console.error("import-passwords: imported \(imported) accounts")
            return 0
        } catch {
            let message: String =
                switch error {
                case .invalidRecord(let line, let field): "line \(line): \(field) is invalid"
                case .duplicateEmail(let line?): "line \(line): the email appears twice in the file"
                case .duplicateEmail(nil): "an email in the file already has an account"
                case .unavailable: "the database is unavailable"
                case .internalFailure(let cause): "internal error (\(cause.logText))"
                }
            Console.error("passkey-server: import-passwords: \(message); nothing imported")
            return 1
        }
    }
}
