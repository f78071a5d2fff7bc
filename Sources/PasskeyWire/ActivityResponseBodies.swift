public import Foundation

/// (v3) One entry of `GET /v1/account/activity`. `method`, `credentialID` (base64url) and
/// `sessionID` are absent when the event has none, like every optional field of the contract.
public struct AccountEventResponseBody: Codable, Sendable, Hashable {
    /// Lowercase UUID.
    public let eventID: String
    /// `sign-in`, `passkey.added`, … (spec v3, "Account activity").
    public let kind: String
    public let occurredAt: Date
    public let clientAddress: String
    /// The request's `User-Agent` (at most 256 characters); empty when it sent none.
    public let userAgent: String
    public let method: String?
    public let credentialID: String?
    /// The session a sign-in created, or the one that made the change.
    public let sessionID: String?

    public init(
        eventID: String, kind: String, occurredAt: Date, clientAddress: String, userAgent: String,
        method: String?, credentialID: String?, sessionID: String?
    ) {
        self.eventID = eventID
        self.kind = kind
        self.occurredAt = occurredAt
        self.clientAddress = clientAddress
        self.userAgent = userAgent
        self.method = method
        self.credentialID = credentialID
        self.sessionID = sessionID
    }
}

/// (v3) A page of `GET /v1/account/activity`, newest first. `next` is the `before` value of the
/// following page, and `null` (present, not absent) on the last one.
public typealias ActivityPageResponseBody = EventPageResponseBody<AccountEventResponseBody>

/// A page of events and the cursor of the next one (the activity's, (v4) the event log's):
/// `next` is always present, `null` when there is none.
public struct EventPageResponseBody<Event: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public let events: [Event]
    public let next: String?

    public init(events: [Event], next: String?) {
        self.events = events
        self.next = next
    }

    enum CodingKeys: String, CodingKey {
        case events, next
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(events, forKey: .events)
        try container.encode(next, forKey: .next)
    }
}
