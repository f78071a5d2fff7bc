internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyWire

/// (v4) `passkey-server operators add NAME --role viewer|support|admin | list | remove NAME`: the
/// support desk's named operators (spec v4, "Support desk"). `add` prints the token once; only
/// its digest is stored, and nothing else ever prints it.
enum OperatorsCommand {
    static let usage = """
        usage: passkey-server operators add NAME --role viewer|support|admin | list | remove NAME

          add NAME --role R   a new operator; prints its token, shown only this once
                              (viewer: reads adoption, accounts, activity and events;
                              support: also acts on accounts; admin: also manages webhooks)
          list                every operator: name, role, created
          remove NAME         the operator's token stops at once, on every instance
        OPERATOR_TOKEN, when set, stays an admin named "operator" (not listed);
        exit 1 when the database cannot answer, the input is refused or the name is unknown,
        2 on a usage error
        """

    static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        if arguments.contains("--help") || arguments.isEmpty {
            Console.out(usage)
            return arguments.isEmpty ? 2 : 0
        }
        let action = arguments[0]
        let rest = Array(arguments.dropFirst())
        switch (action, rest.count) {
        case ("list", 0), ("remove", 1): break
        case ("add", 3) where rest[1] == "--role": break
        default:
            Console.error(
                "passkey-server: operators: \(action) \(rest.joined(separator: " ")) is not an operators command\n\(usage)"
            )
            return 2
        }
        guard let root = CompositionRoot.forCommand(environment) else { return 1 }
        defer { root.shutdown() }
        let useCases = root.useCases
        do throws(OperatorManagementError) {
            switch action {
            case "add":
                let (added, token) = try await useCases.operatorAddition.execute(name: rest[0], role: rest[2])
                Console.out(
                    "operator \(added.name) (\(added.role.rawValue))\ntoken \(token)\n(the token is shown only this once)"
                )
            case "list":
                Console.out(table(try await useCases.operatorList.execute()))
            default:
                try await useCases.operatorRemoval.execute(name: rest[0])
                Console.out("removed \(rest[0]): its token no longer works")
            }
            return 0
        } catch {
            Console.error("passkey-server: operators \(action): \(describe(error))")
            return 1
        }
    }

    static func table(_ operators: [Operator]) -> String {
        guard !operators.isEmpty else { return "(no operators)" }
        var lines = ["name                                                              role     created"]
        for entry in operators {
            lines.append(
                [
                    entry.name.value.padding(toLength: 64, withPad: " ", startingAt: 0),
                    entry.role.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0),
                    entry.createdAt.map(WireJSON.timestamp) ?? "-",
                ].joined(separator: "  "))
        }
        return lines.joined(separator: "\n")
    }

    private static func describe(_ error: OperatorManagementError) -> String {
        switch error {
        case .invalidRequest(let detail): detail
        case .nameTaken: "an operator of that name exists already"
        case .unknownOperator: "no such operator"
        case .unavailable: "the database is unavailable"
        case .internalFailure(let cause): cause.logText
        }
    }
}
