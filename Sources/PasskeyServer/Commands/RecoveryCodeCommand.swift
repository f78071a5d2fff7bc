internal import Foundation
internal import PasskeyApplication
internal import PasskeyWire

/// `passkey-server recovery-code EMAIL`: the support desk's single-use code for an account,
/// valid 24 hours, printed alone on stdout; the operator action is logged on stderr without it.
enum RecoveryCodeCommand {
    static let usage = """
        usage: passkey-server recovery-code EMAIL

        issues one single-use recovery code for the account with this email, valid 24 hours, next to
        the user's own recovery codes, and prints it alone on stdout (read it to the user over a
        verified channel); exit 1 when no account has that email
        """

    static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        if arguments.contains("--help") {
            Console.out(usage)
            return 0
        }
        guard arguments.count == 1, let email = arguments.first else {
            Console.error("passkey-server: recovery-code needs exactly one EMAIL\n\(usage)")
            return 2
        }
        guard let root = CompositionRoot.forCommand(environment) else { return 1 }
        defer { root.shutdown() }
        let d = root.dependencies
        let configuration = root.configuration
        let useCase = OperatorRecoveryCodeUseCase(
            recoveryCodes: d.recoveryCodes, random: d.random, digester: d.digester, policy: configuration.policy,
            clock: d.clock)
        let logger = Logger(level: configuration.logLevel)
        do {
            let issued = try await useCase.execute(email: email)
            Console.out(issued.code)
            logger.warning([
                "event": "operator_recovery_code_issued", "account_id": issued.accountID.description,
                "expires_at": WireJSON.timestamp(issued.expiresAt),
            ])
            return 0
        } catch {
            switch error {
            case .invalidEmail: Console.error("passkey-server: recovery-code: not a valid email address")
            case .unknownEmail: Console.error("passkey-server: recovery-code: no account has this email")
            case .unavailable: Console.error("passkey-server: recovery-code: the database is unavailable")
            case .internalFailure(let cause): Console.error("passkey-server: recovery-code: \(cause.logText)")
            }
            return 1
        }
    }
}
