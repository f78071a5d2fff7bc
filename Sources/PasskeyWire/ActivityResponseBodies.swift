public import Foundation

/// (v3) One entry of `GET /v1/account/activity`. `method`, `credentialID` (base64url) and
/// `sessionID` are absent when the event has none, like every optional field of the contract.
/// (v4) `actor` and `reason` are always present, null when the user did it or no lock is meant;
/// `clientAddress` and `userAgent` are null for an operator's action.
public struct AccountEventResponseBody: Codable, Sendable, Hashable {
    /// Lowercase UUID.
    public let eventID: String
    /// `sign-in`, `passkey.added`, … (spec v3, "Account activity").
    public let kind: String
    public let occurredAt: Date
    /// Null for an operator's action (the user sees who, not from where).
    public let clientAddress: String?
    /// The request's `User-Agent` (at most 256 characters); empty when it sent none, null for an
    /// operator's action.
    public let userAgent: String?
    public let method: String?
    public let credentialID: String?
    /// The session a sign-in created, or the one that made the change.
    public let sessionID: String?
    /// (v4) The operator who did it (the support desk); null when the user did.
    public let actor: String?
    /// (v4) `account.locked`: the lock's reason, written for the user; else null.
    public let reason: String?

    public init(
        eventID: String, kind: String, occurredAt: Date, clientAddress: String?, userAgent: String?,
        method: String?, credentialID: String?, sessionID: String?, actor: String? = nil, reason: String? = nil
    ) {
        self.eventID = eventID
        self.kind = kind
        self.occurredAt = occurredAt
        self.clientAddress = clientAddress
        self.userAgent = userAgent
        self.method = method
        self.credentialID = credentialID
        self.sessionID = sessionID
        self.actor = actor
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case eventID, kind, occurredAt, clientAddress, userAgent, method, credentialID, sessionID, actor, reason
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
        try container.encode(actor, forKey: .actor)
        try container.encode(reason, forKey: .reason)
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
