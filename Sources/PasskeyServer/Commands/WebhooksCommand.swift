internal import Foundation
internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyWire

/// (v4) `passkey-server webhooks add URL [--events KIND,…] [--description TEXT] | list |
/// remove ID`: the webhook endpoints (spec v4, "Webhooks"), the operator endpoints' use cases
/// from the command line. `add` prints the secret once; nothing else ever prints one.
enum WebhooksCommand {
    static let usage = """
        usage: passkey-server webhooks add URL [--events KIND,...] [--description TEXT] | list | remove ID

          add URL       register an endpoint (https://, or http:// to a loopback host) for every
                        event kind, or for the kinds of --events; prints its ID and its secret
                        (whsec_...), shown only this once
          list          every endpoint: ID, kinds, pending and abandoned deliveries, last delivery
          remove ID     send nothing more to the endpoint
        needs DATA_ENCRYPTION_KEY (or DATA_ENCRYPTION_KEY_FILE) for add;
        exit 1 when the database cannot answer, the input is refused or the ID is unknown,
        2 on a usage error
        """

    static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        if arguments.contains("--help") || arguments.isEmpty {
            Console.out(usage)
            return arguments.isEmpty ? 2 : 0
        }
        let action = arguments[0]
        let rest = Array(arguments.dropFirst())
        var url = ""
        var events: [String]?
        var description: String?
        switch (action, rest.count) {
        case ("list", 0), ("remove", 1): break
        case ("add", 1...):
            guard let parsed = parseAdd(rest) else {
                Console.error(
                    "passkey-server: webhooks add: \(rest.joined(separator: " ")) is not URL [--events KIND,...] [--description TEXT]\n\(usage)"
                )
                return 2
            }
            (url, events, description) = parsed
        default:
            Console.error(
                "passkey-server: webhooks: \(action) \(rest.joined(separator: " ")) is not a webhooks command\n\(usage)"
            )
            return 2
        }
        guard let root = CompositionRoot.forCommand(environment) else { return 1 }
        defer { root.shutdown() }
        let useCases = root.useCases
        do throws(WebhookManagementError) {
            switch action {
            case "add":
                let (webhook, secret) = try await useCases.webhookRegistration.execute(
                    url: url, events: events, description: description)
                Console.out("webhook \(webhook.id)\nsecret \(secret.text)\n(the secret is shown only this once)")
            case "list":
                Console.out(table(try await useCases.webhookList.execute()))
            default:
                guard let id = WebhookID(string: rest[0]) else { throw .unknownWebhook }
                try await useCases.webhookRemoval.execute(id)
                Console.out("removed \(id)")
            }
            return 0
        } catch {
            Console.error("passkey-server: webhooks \(action): \(describe(error))")
            return 1
        }
    }

    /// `URL [--events KIND,…] [--description TEXT]`, options in any order after the URL.
    static func parseAdd(_ arguments: [String]) -> (String, [String]?, String?)? {
        guard let url = arguments.first, !url.hasPrefix("--") else { return nil }
        var events: [String]?
        var description: String?
        var index = 1
        while index < arguments.count {
            guard index + 1 < arguments.count else { return nil }
            let value = arguments[index + 1]
            switch arguments[index] {
            case "--events" where events == nil:
                events = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            case "--description" where description == nil: description = value
            default: return nil
            }
            index += 2
        }
        return (url, events, description)
    }

    static func table(_ webhooks: [Webhook]) -> String {
        guard !webhooks.isEmpty else { return "(no webhooks)" }
        var lines = ["id                                    pending  abandoned  last delivered         events  url"]
        for webhook in webhooks {
            lines.append(
                [
                    webhook.id.description,
                    String(webhook.pending).padding(toLength: 8, withPad: " ", startingAt: 0),
                    String(webhook.abandoned).padding(toLength: 10, withPad: " ", startingAt: 0),
                    (webhook.lastDeliveredAt.map(WireJSON.timestamp) ?? "-").padding(
                        toLength: 22, withPad: " ", startingAt: 0),
                    (webhook.events.isEmpty ? "all" : webhook.events.joined(separator: ",")) + "  " + webhook.url.value,
                ].joined(separator: "  "))
        }
        return lines.joined(separator: "\n")
    }

    private static func describe(_ error: WebhookManagementError) -> String {
        switch error {
        case .invalidRequest(let detail): detail
        case .unknownWebhook: "no such webhook (or removed already)"
        case .webhooksUnavailable: "DATA_ENCRYPTION_KEY is not set, so no secret can be stored"
        case .unavailable: "the database is unavailable"
        case .internalFailure(let cause): cause.logText
        }
    }
}
