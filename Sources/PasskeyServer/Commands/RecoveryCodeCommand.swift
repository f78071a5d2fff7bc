internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyWire

/// `passkey-server recovery-code --issued-by NAME EMAIL`: the support desk's single-use code for
/// an account, valid 24 hours, printed alone on stdout. It voids the account's earlier unused
/// operator codes. Who issued it is logged on stderr at `warning` with the account ID, never the
/// code (the account event `recovery-code.issued` arrives with `account_events`). With mail on and
/// `SECURITY_NOTIFICATIONS` on, a notice goes to a verified address, naming `command line` as
/// where the change came from (neither the issuer nor the code).
enum RecoveryCodeCommand {
    static let usage = """
        usage: passkey-server recovery-code --issued-by NAME EMAIL

        issues one single-use recovery code for the account with this email, valid 24 hours, next to
        the user's own recovery codes, and prints it alone on stdout (read it to the user over a
        verified channel); an earlier unused code from the support desk stops working. NAME (required)
        is who at the support desk issues it: 1-64 printable characters, logged with the account ID.
        exit 1 when no account has that email, 2 on a usage error
        """

    /// What the command line asks for: the email and who issues the code.
    struct Arguments: Equatable {
        let email: String
        let issuedBy: SupportAgentName

        /// Nil for anything else than one EMAIL and one valid `--issued-by NAME` (or `=NAME`).
        init?(_ arguments: [String]) {
            var emails: [String] = []
            var issuers: [String] = []
            var rest = arguments[...]
            while let argument = rest.popFirst() {
                if argument == "--issued-by" {
                    guard let name = rest.popFirst() else { return nil }
                    issuers.append(name)
                } else if argument.hasPrefix("--issued-by=") {
                    issuers.append(String(argument.dropFirst("--issued-by=".count)))
                } else if argument.hasPrefix("-") {
                    return nil
                } else {
                    emails.append(argument)
                }
            }
            guard emails.count == 1, issuers.count == 1, let issuedBy = SupportAgentName(issuers[0]) else { return nil }
            self.email = emails[0]
            self.issuedBy = issuedBy
        }
    }

    static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        if arguments.contains("--help") {
            Console.out(usage)
            return 0
        }
        guard let parsed = Arguments(arguments) else {
            Console.error(
                "passkey-server: recovery-code needs one EMAIL and --issued-by NAME (1-64 printable characters)\n\(usage)"
            )
            return 2
        }
        guard let root = CompositionRoot.forCommand(environment) else { return 1 }
        defer { root.shutdown() }
        let configuration = root.configuration
        let useCase = root.useCases.operatorRecoveryCode
        let logger = Logger(level: configuration.logLevel)
        do {
            let issued = try await useCase.execute(email: parsed.email, issuedBy: parsed.issuedBy, origin: .commandLine)
            Console.out(issued.code)
            logger.warning([
                .event: "operator_recovery_code_issued", .accountID: issued.accountID.description,
                .issuedBy: parsed.issuedBy.value, .expiresAt: WireJSON.timestamp(issued.expiresAt),
            ])
            return 0
        } catch {
            switch error {
            case .invalidEmail: Console.error("passkey-server: recovery-code: not a valid email address")
            case .unknownEmail, .unknownAccount:
                Console.error("passkey-server: recovery-code: no account has this email")
            case .unavailable: Console.error("passkey-server: recovery-code: the database is unavailable")
            case .internalFailure(let cause): Console.error("passkey-server: recovery-code: \(cause.logText)")
            }
            return 1
        }
    }
}
