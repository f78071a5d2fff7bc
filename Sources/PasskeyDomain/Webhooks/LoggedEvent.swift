package import Foundation

/// (v4) Where a reader of the event log stands: after the event at this place in the log's order
/// (the writing transaction's ID, then the row's position). Every place is a cursor, also one no
/// event has.
package struct EventLogCursor: Hashable, Sendable, Comparable {
    /// The `xid8` of the transaction that wrote the event.
    package let transaction: UInt64
    package let position: Int64

    package init(transaction: UInt64, position: Int64) {
        self.transaction = transaction
        self.position = position
    }

    package static func < (a: Self, b: Self) -> Bool {
        (a.transaction, a.position) < (b.transaction, b.position)
    }

    /// The `after`/`next` value: base64url of the two numbers, 16 bytes big-endian.
    package var wireValue: String {
        Base64URL.encode(
            withUnsafeBytes(of: transaction.bigEndian) { Array($0) }
                + withUnsafeBytes(of: position.bigEndian) { Array($0) })
    }

    package init?(wireValue: String) {
        guard wireValue.utf8.count == 22, let bytes = Base64URL.decode(wireValue), bytes.count == 16,
            Base64URL.encode(bytes) == wireValue
        else { return nil }
        let transaction = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let position = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        // Positions are positive `bigint`s: one past them is after every row of that transaction.
        self.init(transaction: transaction, position: Int64(clamping: position))
    }
}

/// (v4) One event of the log the webhooks send and `GET /v1/operator/events` serves: an account
/// event as the activity shows it, plus its account, who did it, and for `stage.changed` the
/// stages. It outlives the account (`account.deleted` and what came before it).
package struct LoggedEvent: Hashable, Sendable {
    package let id: AccountEventID
    package let accountID: AccountID
    /// The kind: an activity kind, or a webhook-only one (`stage.changed`, `account.deleted`).
    package let kind: String
    package let occurredAt: Date
    /// Nil for an operator's action (as `userAgent`).
    package let clientAddress: String?
    package let userAgent: String?
    package let method: String?
    package let credentialID: CredentialID?
    package let sessionID: SessionID?
    /// The operator who did it; nil when the user did.
    package let actor: String?
    /// `account.locked`: the lock's reason.
    package let reason: String?
    package let stageChange: (from: MigrationStage, to: MigrationStage)?
    package let cursor: EventLogCursor

    package init(
        id: AccountEventID, accountID: AccountID, kind: String, occurredAt: Date, clientAddress: String?,
        userAgent: String?, method: String?, credentialID: CredentialID?, sessionID: SessionID?, actor: String?,
        reason: String? = nil,
        stageChange: (from: MigrationStage, to: MigrationStage)?, cursor: EventLogCursor
    ) {
        self.id = id
        self.accountID = accountID
        self.kind = kind
        self.occurredAt = occurredAt
        self.clientAddress = clientAddress
        self.userAgent = userAgent
        self.method = method
        self.credentialID = credentialID
        self.sessionID = sessionID
        self.actor = actor
        self.reason = reason
        self.stageChange = stageChange
        self.cursor = cursor
    }

    package static func == (a: Self, b: Self) -> Bool {
        a.id == b.id && a.accountID == b.accountID && a.kind == b.kind && a.occurredAt == b.occurredAt
            && a.clientAddress == b.clientAddress && a.userAgent == b.userAgent && a.method == b.method
            && a.credentialID == b.credentialID && a.sessionID == b.sessionID && a.actor == b.actor
            && a.reason == b.reason
            && a.stageChange?.from == b.stageChange?.from && a.stageChange?.to == b.stageChange?.to
            && a.cursor == b.cursor
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(cursor)
    }
}
