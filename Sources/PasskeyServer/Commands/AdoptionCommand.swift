internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyWire

/// `passkey-server adoption [--days N] [--json]`: the operators' adoption figures through the
/// same use case as `GET /v1/operator/adoption`, as a table, or with `--json` exactly the
/// endpoint's body (spec v3, "Adoption, for operators").
enum AdoptionCommand {
    static let usage = """
        usage: passkey-server adoption [--days N] [--json]

        prints the adoption figures: the accounts by stage now (password only, password and passkey,
        passkey only), per UTC day of the window (today and the N-1 days before it, oldest first) the
        sign-ins by method, passkeys added, accounts created and passwords removed, and the upgrade
        rate (password sign-ins of accounts without a passkey, and how many of those sessions added
        one). N is 1 to 366 (default 30). --json prints the body of GET /v1/operator/adoption.
        exit 1 when the database cannot answer, 2 on a usage error
        """

    /// What the command line asks for.
    struct Arguments: Equatable {
        var days = AdoptionFiguresUseCase.defaultDays
        var json = false

        /// Nil for an unknown option, or a `--days` that is not 1…366 (given once).
        init?(_ arguments: [String]) {
            var rest = arguments[...]
            var daysGiven = false
            while let argument = rest.popFirst() {
                let value: String?
                if argument == "--json" {
                    guard !json else { return nil }
                    json = true
                    continue
                } else if argument == "--days" {
                    value = rest.popFirst()
                } else if argument.hasPrefix("--days=") {
                    value = String(argument.dropFirst("--days=".count))
                } else {
                    return nil
                }
                guard !daysGiven, let value, value.allSatisfy(\.isASCII), let days = Int(value),
                    AdoptionFiguresUseCase.allowedDays.contains(days)
                else { return nil }
                daysGiven = true
                self.days = days
            }
        }
    }

    static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        if arguments.contains("--help") {
            Console.out(usage)
            return 0
        }
        guard let parsed = Arguments(arguments) else {
            Console.error("passkey-server: adoption takes --days N (1-366) and --json\n\(usage)")
            return 2
        }
        guard let root = CompositionRoot.forCommand(environment) else { return 1 }
        defer { root.shutdown() }
        let useCase = root.useCases.adoptionFigures
        let figures: AdoptionFigures
        do {
            figures = try await useCase.execute(days: parsed.days)
        } catch {
            switch error {
            case .invalidDays: Console.error("passkey-server: adoption: --days must be 1 to 366")
            case .unavailable: Console.error("passkey-server: adoption: the database is unavailable")
            case .internalFailure(let cause): Console.error("passkey-server: adoption: \(cause.logText)")
            }
            return 1
        }
        if parsed.json {
            guard let body = try? WireJSON.body(AdoptionResponseBody(figures)) else { return 1 }
            Console.out(String(decoding: body, as: UTF8.self))
        } else {
            Console.out(table(figures))
        }
        return 0
    }

    /// The figures for a person: the stages, the upgrade rate, then one line per day.
    static func table(_ figures: AdoptionFigures) -> String {
        let a = figures.accounts
        let u = figures.upgrade
        func percent(_ part: Int, of whole: Int) -> String {
            whole == 0 ? "-" : String(format: "%.1f %%", Double(part) * 100 / Double(whole))
        }
        var lines = [
            "adoption figures, generated \(WireJSON.timestamp(figures.generatedAt)), "
                + "\(figures.days.count) UTC day(s) from \(figures.days.first.map { "\($0.date)" } ?? "-")",
            "",
            "accounts                   \(pad(a.total, 9))",
            "  1 password only          \(pad(a.passwordOnly, 9))  \(percent(a.passwordOnly, of: a.total))",
            "  2 password and passkey   \(pad(a.passwordAndPasskey, 9))  \(percent(a.passwordAndPasskey, of: a.total))",
            "  3 passkey only           \(pad(a.passkeyOnly, 9))  \(percent(a.passkeyOnly, of: a.total))",
            "  email verified           \(pad(a.emailVerified, 9))  \(percent(a.emailVerified, of: a.total))",
            "",
            "upgrade: \(u.passwordSignIns) password sign-in(s) without a passkey, \(u.followedByPasskey) "
                + "followed by a passkey (rate \(String(format: "%.3f", u.rate)))",
            "",
            "date        sign-ins: password  passkey recovery    email   passkeys: modal  condit.  sign-up"
                + "   created: password  passkey   pw removed",
        ]
        for day in figures.days {
            let s = day.signIns
            let p = day.passkeysAdded
            let c = day.accountsCreated
            lines.append(
                "\(day.date)            \(pad(s.password, 8)) \(pad(s.passkey, 8)) \(pad(s.recovery, 8)) "
                    + "\(pad(s.email, 8))          \(pad(p.modal, 6)) \(pad(p.conditional, 8)) \(pad(p.signUp, 8))"
                    + "            \(pad(c.password, 8)) \(pad(c.passkey, 8)) \(pad(day.passwordsRemoved, 12))")
        }
        return lines.joined(separator: "\n")
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
