package import Foundation

/// (v4) The ID of a registered webhook endpoint.
package struct WebhookID: Hashable, Sendable, CustomStringConvertible {
    package let uuid: UUID
    package init(_ uuid: UUID = UUID()) { self.uuid = uuid }
    package init?(string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.uuid = uuid
    }
    package var description: String { uuid.uuidString.lowercased() }
}

/// (v4) Where a webhook endpoint is: `https://…`, or `http://` to a loopback host only (a
/// receiver beside the server); no user or password, no fragment, at most 2,048 characters, and
/// only printable ASCII, so the URL libcurl reads is the URL that was checked.
package struct WebhookURL: Hashable, Sendable, CustomStringConvertible {
    package static let maximumLength = 2048
    package let value: String

    package init?(_ text: String) {
        guard (1...Self.maximumLength).contains(text.utf8.count),
            text.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) && $0 != "\\" }),
            let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty,
            components.user == nil, components.password == nil, components.fragment == nil
        else { return nil }
        // The authority must be the host (and port) alone: an "@" there names a user.
        let authority = text.dropFirst(scheme.count + 3).prefix { $0 != "/" && $0 != "?" }
        guard text.lowercased().hasPrefix(scheme + "://"), !authority.contains("@") else { return nil }
        switch scheme {
        case "https": break
        case "http": guard Self.isLoopback(host) else { return nil }
        default: return nil
        }
        value = text
    }

    /// `localhost`, 127.0.0.0/8 or ::1.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    package var description: String { value }
}

/// (v4) The kinds an endpoint may ask for: every kind of the activity (`account.locked` and
/// `account.unlocked` are the support desk's) and the webhook-only ones.
package enum WebhookEventKinds {
    package static let all: Set<String> = Set(AccountActivity.Kind.allCases.map(\.rawValue))
}

/// (v4) What an operator wrote about an endpoint: at most 200 printable code points.
package struct WebhookDescription: Hashable, Sendable, CustomStringConvertible {
    package static let maximumScalars = 200
    package let value: String

    package init?(_ raw: String) {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        guard trimmed.unicodeScalars.count <= Self.maximumScalars,
            trimmed.unicodeScalars.allSatisfy({ scalar in
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
                    false
                default: true
                }
            })
        else { return nil }
        value = trimmed
    }

    package var description: String { value }
}

/// (v4) A registered endpoint as operators see it; `pending` and `abandoned` count its
/// deliveries (abandoned ones within the retention).
package struct Webhook: Hashable, Sendable {
    package let id: WebhookID
    package let url: WebhookURL
    /// Sorted; empty: every kind.
    package let events: [String]
    package let description: WebhookDescription
    package let createdAt: Date
    package let pending: Int
    package let abandoned: Int
    package let lastDeliveredAt: Date?

    package init(
        id: WebhookID, url: WebhookURL, events: [String], description: WebhookDescription, createdAt: Date,
        pending: Int = 0, abandoned: Int = 0, lastDeliveredAt: Date? = nil
    ) {
        self.id = id
        self.url = url
        self.events = events
        self.description = description
        self.createdAt = createdAt
        self.pending = pending
        self.abandoned = abandoned
        self.lastDeliveredAt = lastDeliveredAt
    }
}
