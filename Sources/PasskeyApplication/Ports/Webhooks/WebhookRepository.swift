package import Foundation
package import PasskeyDomain

/// (v4) The registered webhook endpoints (`webhooks`), as operators manage them. Secrets come and
/// go sealed (`SecretSealer`, bound to the endpoint's ID): this port never sees one in the clear.
package protocol WebhookRepository: Sendable {
    /// Stores a new endpoint with its sealed secret; false (nothing stored) while `limit`
    /// endpoints exist already.
    func add(_ webhook: Webhook, sealedSecret: [UInt8], limit: Int) async throws(RepositoryError) -> Bool

    /// Every endpoint not removed, oldest first, with its counts of pending and abandoned
    /// deliveries.
    func list() async throws(RepositoryError) -> [Webhook]

    /// Marks the endpoint removed and deletes its pending deliveries: nothing more is sent to it.
    /// False when there is no such endpoint (or it was removed already).
    func remove(_ id: WebhookID) async throws(RepositoryError) -> Bool

    /// Makes `sealedSecret` the endpoint's secret; the one it replaces still signs until
    /// `previousUntil`. False when there is no such endpoint.
    func replaceSecret(of id: WebhookID, with sealedSecret: [UInt8], previousUntil: Date)
        async throws(RepositoryError) -> Bool

    /// Every stored sealed secret (current and previous) with its endpoint's ID: the start-up
    /// check that `DATA_ENCRYPTION_KEY` opens them.
    func sealedSecrets() async throws(RepositoryError) -> [(id: WebhookID, sealed: [UInt8])]
}
