internal import Foundation
internal import PasskeyApplication

/// Entry point of the `passkey-server` executable: `serve` (default), `migrate`, `sweep`,
/// `recovery-code --issued-by NAME EMAIL`, `healthcheck`, `import-passwords FILE`, `verify-response FILE…`, `adoption`, `keys`, `webhooks`, `operators`, each
/// with `--help`.
package enum PasskeyCommandLine {
    package static func main() async {
        let code = await run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
        exit(code)
    }

    static let usage = """
        usage: passkey-server [COMMAND] [--help]

        commands:
          serve                     run the HTTP server (the default)
          migrate                   apply pending database migrations and exit
          sweep                     delete expired challenges, registrations and sessions once
          recovery-code --issued-by NAME EMAIL
                            issue one single-use recovery code (support desk), print it on stdout
          healthcheck [--ready]     exit 0 when the local server answers /healthz (/readyz) with 200
          import-passwords FILE     import password users from JSON lines, all or nothing
          adoption [--days N] [--json]
                            the operators' adoption figures, as a table or the endpoint's JSON
          verify-response FILE...   verify captured WebAuthn ceremonies offline
          keys list | rotate | revoke KID
                            the token signing keys (needs DATA_ENCRYPTION_KEY to rotate or revoke)
          webhooks add URL [--events KIND,...] | list | remove ID
                            the webhook endpoints (needs DATA_ENCRYPTION_KEY to add)
          operators add NAME --role viewer|support|admin | list | remove NAME
                            the support desk's operators (add prints the token once)

        configuration comes from the environment (see README.md): DATABASE_URL, PORT, PASSKEY_RP_ID, ...
        """

    static let help: [String: String] = [
        "migrate":
            "usage: passkey-server migrate\n\napplies Migrations/*.sql in order (PASSKEY_MIGRATIONS_DIR overrides the folder) and exits",
        "sweep":
            "usage: passkey-server sweep\n\ndeletes expired challenges, account registrations and sessions in batches, once",
        "serve": "usage: passkey-server serve\n\nruns the HTTP server; configuration from the environment (README.md)",
    ]

    /// Runs one command and returns the process exit code.
    static func run(_ arguments: [String], environment: [String: String]) async -> Int32 {
        let command = arguments.first ?? "serve"
        let rest = Array(arguments.dropFirst())
        if command == "--help" || command == "-h" || command == "help" {
            Console.out(usage)
            return 0
        }
        // The commands whose `--help` is one line here; the others print their own usage.
        if let help = Self.help[command], rest.contains("--help") {
            Console.out(help)
            return 0
        }
        switch command {
        case "migrate":
            return await MaintenanceCommands.migrate(environment: environment)
        case "sweep":
            return await MaintenanceCommands.sweep(environment: environment)
        case "healthcheck":
            return HealthcheckCommand.run(arguments: rest, environment: environment)
        case "recovery-code":
            return await RecoveryCodeCommand.run(arguments: rest, environment: environment)
        case "import-passwords":
            return await ImportPasswordsCommand.run(arguments: rest, environment: environment)
        case "verify-response":
            return VerifyResponseCommand.run(arguments: rest)
        case "adoption":
            return await AdoptionCommand.run(arguments: rest, environment: environment)
        case "keys":
            return await KeysCommand.run(arguments: rest, environment: environment)
        case "webhooks":
            return await WebhooksCommand.run(arguments: rest, environment: environment)
        case "operators":
            return await OperatorsCommand.run(arguments: rest, environment: environment)
        case "serve":
            return await ServeCommand.run(environment: environment)
        default:
            Console.error("passkey-server: unknown command '\(command)'\n\(usage)")
            return 2
        }
    }
}
