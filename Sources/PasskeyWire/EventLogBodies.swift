public import Foundation

/// (v4) The body of a webhook delivery, and one entry of `GET /v1/operator/events`:
/// `{type, timestamp, data}` (Standard Webhooks), `type` the event's kind and `timestamp` its
/// `occurredAt`.
public struct EventPayloadBody: Codable, Sendable, Hashable {
    public let type: String
    public let timestamp: Date
    public let data: EventDataBody

    public init(type: String, timestamp: Date, data: EventDataBody) {
        self.type = type
        self.timestamp = timestamp
        self.data = data
    }
}

/// The activity API's Event (`AccountEventResponseBody`'s fields) plus `accountID`, `actor`
/// (present, null when the user did it) and, for `stage.changed`, `from` and `to`.
public struct EventDataBody: Codable, Sendable, Hashable {
    public let eventID: String
    public let kind: String
    public let occurredAt: Date
    public let clientAddress: String?
    public let userAgent: String?
    public let method: String?
    public let credentialID: String?
    public let sessionID: String?
    public let accountID: String
    public let actor: String?
    /// `account.locked`: the lock's reason; else null.
    public let reason: String?
    public let from: String?
    public let to: String?

    public init(
        eventID: String, kind: String, occurredAt: Date, clientAddress: String?, userAgent: String?, method: String?,
        credentialID: String?, sessionID: String?, accountID: String, actor: String?, reason: String? = nil,
        from: String?, to: String?
    ) {
        self.eventID = eventID
        self.kind = kind
        self.occurredAt = occurredAt
        self.clientAddress = clientAddress
        self.userAgent = userAgent
        self.method = method
        self.credentialID = credentialID
        self.sessionID = sessionID
        self.accountID = accountID
        self.actor = actor
        self.reason = reason
        self.from = from
        self.to = to
    }

    enum CodingKeys: String, CodingKey {
        case eventID, kind, occurredAt, clientAddress, userAgent, method, credentialID, sessionID, accountID, actor
        case reason, from, to
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(eventID, forKey: .eventID)
        try container.encode(kind, forKey: .kind)
        try container.encode(occurredAt, forKey: .occurredAt)
        try container.encode(clientAddress, forKey: .clientAddress)
        try container.encode(userAgent, forKey: .userAgent)
        try container.encodeIfPresent(method, forKey: .method)
        try container.encodeIfPresent(credentialID, forKey: .credentialID)
        try container.encodeIfPresent(sessionID, forKey: .sessionID)
        try container.encode(accountID, forKey: .accountID)
        try container.encode(actor, forKey: .actor)
        try container.encode(reason, forKey: .reason)
        try container.encodeIfPresent(from, forKey: .from)
        try container.encodeIfPresent(to, forKey: .to)
    }
}

/// (v4) A page of `GET /v1/operator/events`, oldest first. `next` is the `after` of the following
/// page (present; null only while no event exists).
public typealias EventsPageResponseBody = EventPageResponseBody<EventPayloadBody>
