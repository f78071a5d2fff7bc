package import Foundation
package import PasskeyApplication
package import PasskeyDomain
package import Synchronization

/// `WebhookRepository` in memory, for the webhook use cases' unit tests: endpoints with their
/// sealed secrets (inspectable), and a failure to inject.
package final class InMemoryWebhookRepository: WebhookRepository {
    package struct Stored: Sendable {
        package var webhook: Webhook
        package var sealedSecret: [UInt8]
        package var previous: (sealed: [UInt8], until: Date)?
        package var removed = false
    }

    private let state = Mutex<[Stored]>([])
    /// Every call fails with this while set.
    package let failure = Mutex<RepositoryError?>(nil)

    package init() {}

    package var stored: [Stored] { state.withLock { $0 } }

    private func check() throws(RepositoryError) {
        if let error = failure.withLock({ $0 }) { throw error }
    }

    package func add(_ webhook: Webhook, sealedSecret: [UInt8], limit: Int) async throws(RepositoryError) -> Bool {
        try check()
        return state.withLock { rows in
            guard rows.count(where: { !$0.removed }) < limit else { return false }
            rows.append(Stored(webhook: webhook, sealedSecret: sealedSecret))
            return true
        }
    }

    package func list() async throws(RepositoryError) -> [Webhook] {
        try check()
        return state.withLock { $0.filter { !$0.removed }.map(\.webhook) }
    }

    package func remove(_ id: WebhookID) async throws(RepositoryError) -> Bool {
        try check()
        return state.withLock { rows in
            guard let index = rows.firstIndex(where: { $0.webhook.id == id && !$0.removed }) else { return false }
            rows[index].removed = true
            return true
        }
    }

    package func replaceSecret(
        of id: WebhookID, with sealedSecret: [UInt8], previousUntil: Date
    ) async throws(RepositoryError) -> Bool {
        try check()
        return state.withLock { rows in
            guard let index = rows.firstIndex(where: { $0.webhook.id == id && !$0.removed }) else { return false }
            rows[index].previous = (rows[index].sealedSecret, previousUntil)
            rows[index].sealedSecret = sealedSecret
            return true
        }
    }

    package func sealedSecrets() async throws(RepositoryError) -> [(id: WebhookID, sealed: [UInt8])] {
        try check()
        return state.withLock { rows in
            rows.filter { !$0.removed }.flatMap { row in
                [(row.webhook.id, row.sealedSecret)] + (row.previous.map { [(row.webhook.id, $0.sealed)] } ?? [])
            }
        }
    }
}

/// `WebhookDeliveryRepository` scripted for the sender's unit tests: hands out the deliveries it
/// was given and records how each was settled.
package final class RecordingWebhookDeliveries: WebhookDeliveryRepository {
    package enum Settlement: Hashable, Sendable {
        case delivered(WebhookDeliveryKey)
        case rescheduled(WebhookDeliveryKey, attempts: Int, lastError: String, nextAttemptAt: Date)
        case abandoned(WebhookDeliveryKey, attempts: Int, lastError: String)
    }

    private let due = Mutex<[ClaimedWebhookDelivery]>([])
    private let settled = Mutex<[Settlement]>([])
    package let claims = Mutex<[(limit: Int, perEndpoint: Int, lease: TimeInterval, excluding: Set<WebhookID>)]>([])

    package init(_ deliveries: [ClaimedWebhookDelivery] = []) { due.withLock { $0 = deliveries } }

    package var settlements: [Settlement] { settled.withLock { $0 } }

    package func claimDue(
        limit: Int, perEndpoint: Int, lease: TimeInterval, excluding: Set<WebhookID>
    ) async throws(RepositoryError) -> [ClaimedWebhookDelivery] {
        claims.withLock { $0.append((limit, perEndpoint, lease, excluding)) }
        return due.withLock { due in
            let taken = Array(due.filter { !excluding.contains($0.key.webhookID) }.prefix(max(0, limit)))
            due.removeAll { delivery in taken.contains(delivery) }
            return taken
        }
    }

    package func markDelivered(_ key: WebhookDeliveryKey) async throws(RepositoryError) {
        settled.withLock { $0.append(.delivered(key)) }
    }

    package func reschedule(
        _ key: WebhookDeliveryKey, attempts: Int, lastError: String, nextAttemptAt: Date
    ) async throws(RepositoryError) {
        settled.withLock {
            $0.append(.rescheduled(key, attempts: attempts, lastError: lastError, nextAttemptAt: nextAttemptAt))
        }
    }

    package func abandon(_ key: WebhookDeliveryKey, attempts: Int, lastError: String) async throws(RepositoryError) {
        settled.withLock { $0.append(.abandoned(key, attempts: attempts, lastError: lastError)) }
    }

    package func oldestPendingAge() async throws(RepositoryError) -> TimeInterval? { nil }
}

/// `WebhookTransport` that answers from a script (the same outcome for every post by default)
/// and records what it was asked to send.
package final class ScriptedWebhookTransport: WebhookTransport {
    private let outcome: Mutex<WebhookPostOutcome>
    private let sent = Mutex<[(message: WebhookMessage, url: WebhookURL)]>([])

    package init(_ outcome: WebhookPostOutcome = .delivered(status: 204)) { self.outcome = Mutex(outcome) }

    package func answer(_ outcome: WebhookPostOutcome) { self.outcome.withLock { $0 = outcome } }

    package var posts: [(message: WebhookMessage, url: WebhookURL)] { sent.withLock { $0 } }

    package func post(_ message: WebhookMessage, to url: WebhookURL) async -> WebhookPostOutcome {
        sent.withLock { $0.append((message, url)) }
        return outcome.withLock { $0 }
    }
}

/// `WebhookMessageFormat` without JSON or HMAC: the body is the event's ID, and one header names
/// the secrets it was given (their first bytes) and the timestamp.
package struct LabelledWebhookFormat: WebhookMessageFormat {
    package init() {}

    package func message(for event: LoggedEvent, secrets: [WebhookSecret], timestamp: Int) throws(WebhookFormatError)
        -> WebhookMessage
    {
        WebhookMessage(
            headers: [
                WebhookHeader(name: "webhook-id", value: event.id.description),
                WebhookHeader(name: "webhook-timestamp", value: String(timestamp)),
                WebhookHeader(name: "secrets", value: secrets.map { String($0.bytes[0]) }.joined(separator: " ")),
            ], body: Array(event.id.description.utf8))
    }
}
