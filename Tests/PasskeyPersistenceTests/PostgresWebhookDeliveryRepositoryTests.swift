import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// The deliveries in SQL: written by the statement of their event (one per endpoint that takes
/// its kind; none for a change that rolled back: `PostgresEventLogRepositoryTests`), claimed in each account's order (a later event
/// waits while an earlier one to the same endpoint is pending or in flight; other accounts do
/// not), under a lease, never to two claimers, behind a transaction still running, and swept.
@Suite struct PostgresWebhookDeliveryRepositoryTests {
    static func event(_ accountID: AccountID, _ activity: AccountActivity = .passwordSet) -> AccountEvent {
        PostgresEventLogRepositoryTests.event(accountID, activity)
    }

    static func record(_ event: AccountEvent, _ repos: Repositories) async throws {
        try await PostgresEventLogRepositoryTests.record(event, repos)
    }

    /// An endpoint for `events` (empty: every kind); its sealed secret is `[9]`.
    static func endpoint(_ pool: PostgresConnectionPool, events: [String] = []) async throws -> WebhookID {
        let webhook = try PostgresWebhookRepositoryTests.webhook(events: events)
        _ = try await PostgresWebhookRepository(pool: pool).add(webhook, sealedSecret: [9], limit: 100)
        return webhook.id
    }

    /// Claims until the claim finds `count` (at most 30 s: another test's transaction in the
    /// cluster holds new events back while it runs).
    static func claim(
        _ deliveries: PostgresWebhookDeliveryRepository, count: Int = 1, limit: Int = 10, perEndpoint: Int = 10,
        excluding: Set<WebhookID> = []
    ) async throws -> [ClaimedWebhookDelivery] {
        let deadline = ContinuousClock.now + .seconds(30)
        var all: [ClaimedWebhookDelivery] = []
        while true {
            all += try await deliveries.claimDue(
                limit: limit - all.count, perEndpoint: perEndpoint, lease: 60, excluding: excluding)
            if all.count >= count || ContinuousClock.now >= deadline { return all }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits (at most 30 s) until `count` deliveries are older than every running transaction of
    /// the cluster, so that one claim sees them all.
    static func visible(_ count: Int, _ repos: Repositories) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while try await repos.count(
            "SELECT count(*) FROM webhook_deliveries WHERE written_by < pg_snapshot_xmin(pg_current_snapshot())")
            < count,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func anEventIsWrittenForEveryEndpointThatTakesItsKind() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let all = try await Self.endpoint(pool)
            let passwords = try await Self.endpoint(pool, events: ["password.set"])
            let other = try await Self.endpoint(pool, events: ["sign-in"])
            let removed = try await Self.endpoint(pool)
            _ = try await PostgresWebhookRepository(pool: pool).remove(removed)
            let event = Self.event(account.id)
            try await Self.record(event, repos)
            let claimed = try await Self.claim(PostgresWebhookDeliveryRepository(pool: pool), count: 2)
            #expect(Set(claimed.map(\.key.webhookID)) == [all, passwords])
            #expect(!claimed.contains { $0.key.webhookID == other || $0.key.webhookID == removed })
            let delivery = try #require(claimed.first)
            #expect(delivery.event.id == event.id && delivery.event.kind == "password.set")
            #expect(delivery.sealedSecrets == [[9]])
            #expect(delivery.attempts == 0)
            #expect(delivery.url.value == "https://hooks.example.com/a")
        }
    }

    @Test func anAccountsEventsGoInOrderAndOtherAccountsAreNotHeldUp() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let ann = try await repos.passwordAccount()
            let bob = try await repos.passwordAccount()
            let endpoint = try await Self.endpoint(pool)
            let ann1 = Self.event(ann.id)
            let ann2 = Self.event(ann.id, .passwordRemoved)
            let bob1 = Self.event(bob.id)
            for event in [ann1, ann2, bob1] { try await Self.record(event, repos) }
            let deliveries = PostgresWebhookDeliveryRepository(pool: pool)
            let first = try await Self.claim(deliveries, count: 2)
            #expect(Set(first.map(\.event.id)) == [ann1.id, bob1.id], "ann's second waits for her first")
            // While ann's first is in flight (leased), her second is still not due.
            #expect(try await deliveries.claimDue(limit: 10, perEndpoint: 10, lease: 60, excluding: []).isEmpty)
            let annFirst = try #require(first.first { $0.event.id == ann1.id })
            // A failed attempt keeps her second waiting too…
            try await deliveries.reschedule(
                annFirst.key, attempts: 1, lastError: "HTTP 500", nextAttemptAt: Date() + 3600)
            #expect(try await deliveries.claimDue(limit: 10, perEndpoint: 10, lease: 60, excluding: []).isEmpty)
            // …until it is abandoned (or delivered).
            try await deliveries.abandon(annFirst.key, attempts: 12, lastError: "HTTP 500")
            let second = try await Self.claim(deliveries)
            #expect(second.map(\.event.id) == [ann2.id])
            try await deliveries.markDelivered(second[0].key)
            let listed = try #require(
                try await PostgresWebhookRepository(pool: pool).list().first { $0.id == endpoint })
            #expect(listed.pending == 1, "bob's, still leased")
            #expect(listed.abandoned == 1)
            #expect(listed.lastDeliveredAt != nil)
        }
    }

    @Test func aLeaseHidesADeliveryUntilItEnds() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            _ = try await Self.endpoint(pool)
            try await Self.record(Self.event(account.id), repos)
            let deliveries = PostgresWebhookDeliveryRepository(pool: pool)
            let claimed =
                try await deliveries.claimDue(limit: 1, perEndpoint: 1, lease: 0.3, excluding: [])
                + Self.claim(deliveries, limit: 1)
            #expect(claimed.count >= 1)
            // Leased: nobody else gets it until the lease ends (a crashed sender's delivery returns).
            #expect(try await deliveries.claimDue(limit: 1, perEndpoint: 1, lease: 60, excluding: []).isEmpty)
        }
    }

    @Test func twoClaimersNeverGetTheSameDelivery() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            _ = try await Self.endpoint(pool)
            var accounts: [AccountID] = []
            for _ in 0..<20 { accounts.append(try await repos.passwordAccount().id) }
            for account in accounts { try await Self.record(Self.event(account), repos) }
            let deliveries = PostgresWebhookDeliveryRepository(pool: pool)
            // Wait until all are visible to a claim, then give them back by letting the lease run out.
            _ = try await Self.claim(deliveries, count: 20, limit: 20, perEndpoint: 20)
            try await repos.pool.withConnection { c async throws(PostgresError) in
                try await c.execute("UPDATE webhook_deliveries SET leased_until = NULL")
            }
            let claims = try await concurrently(Array(0..<6)) { _ in
                try await deliveries.claimDue(limit: 5, perEndpoint: 20, lease: 60, excluding: [])
            }
            let keys = claims.flatMap { $0.map(\.key) }
            #expect(keys.count == 20)
            #expect(Set(keys).count == keys.count, "no delivery claimed twice")
        }
    }

    @Test func aClaimTakesAtMostPerEndpointAndSkipsBusyEndpoints() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let busy = try await Self.endpoint(pool)
            let quiet = try await Self.endpoint(pool, events: ["password.set"])
            for _ in 0..<4 { try await Self.record(Self.event(try await repos.passwordAccount().id), repos) }
            let deliveries = PostgresWebhookDeliveryRepository(pool: pool)
            try await Self.visible(8, repos)
            let first = try await deliveries.claimDue(limit: 10, perEndpoint: 2, lease: 60, excluding: [])
            #expect(first.filter { $0.key.webhookID == busy }.count == 2)
            #expect(first.filter { $0.key.webhookID == quiet }.count == 2)
            let second = try await deliveries.claimDue(limit: 10, perEndpoint: 10, lease: 60, excluding: [busy])
            #expect(second.map(\.key.webhookID) == [quiet, quiet])
            #expect(try await deliveries.claimDue(limit: 10, perEndpoint: 10, lease: 60, excluding: [busy]).isEmpty)
        }
    }

    @Test func anOpenTransactionHoldsBackADeliveryCommittedAfterIt() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            _ = try await Self.endpoint(pool)
            let deliveries = PostgresWebhookDeliveryRepository(pool: pool)
            let slow = Self.event(account.id, .emailChanged)
            let commit = await PostgresEventLogRepositoryTests.openTransaction(writing: slow, repos)
            let fast = Self.event(account.id, .passwordRemoved)
            try await Self.record(fast, repos)
            #expect(try await deliveries.claimDue(limit: 10, perEndpoint: 10, lease: 60, excluding: []).isEmpty)
            try await commit()
            let claimed = try await Self.claim(deliveries)
            #expect(claimed.map(\.event.id) == [slow.id], "the slow one first; the fast one waits for it")
        }
    }

    @Test func stageChangesAndDeletionsAreDeliveredToo() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            _ = try await Self.endpoint(pool, events: ["stage.changed", "account.deleted"])
            try await repos.addPasskey(DomainFixtures.passkey(accountID: account.id))
            try await repos.store.transaction { tx async throws(RepositoryError) in
                try await tx.events.record(Self.event(account.id, .accountDeleted))
            }
            let deliveries = PostgresWebhookDeliveryRepository(pool: pool)
            let first = try await Self.claim(deliveries)
            #expect(first.map(\.event.kind) == ["stage.changed"])
            #expect(first.first?.event.stageChange?.from == .passwordOnly)
            #expect(first.first?.event.stageChange?.to == .passwordAndPasskey)
            try await deliveries.markDelivered(try #require(first.first).key)
            #expect(try await Self.claim(deliveries).map(\.event.kind) == ["account.deleted"])
        }
    }

    @Test func theSweepAbandonsDeliveriesPastTheRetentionAndDropsRemovedEndpoints() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let kept = try await Self.endpoint(pool)
            let removed = try await Self.endpoint(pool)
            try await Self.record(Self.event(account.id), repos)
            try await repos.pool.withConnection { c async throws(PostgresError) in
                try await c.execute(
                    "UPDATE webhook_deliveries SET created_at = now() - interval '31 days' WHERE webhook_id = '\(kept.description)'"
                )
                try await c.execute(
                    "UPDATE webhooks SET removed_at = now() - interval '2 hours' WHERE id = '\(removed.description)'")
            }
            let maintenance = PostgresMaintenanceRepository(
                pool: pool, migrations: MigrationRunner(migrations: []), webhookEventRetentionDays: 30)
            _ = try await maintenance.sweepExpired(batchSize: 10)
            let listed = try await PostgresWebhookRepository(pool: pool).list()
            #expect(listed.map(\.id) == [kept])
            #expect(listed.first?.pending == 0 && listed.first?.abandoned == 1, "a payload gone counts as abandoned")
            #expect(
                try await repos.count("SELECT count(*) FROM webhook_deliveries WHERE webhook_id = \(removed.uuid)") == 0
            )
            #expect(try await repos.count("SELECT count(*) FROM webhooks WHERE id = \(removed.uuid)") == 0)
        }
    }

    @Test func theOldestPendingAgeCountsOnlyLiveEndpoints() async throws {
        try await withTestDatabase { _, pool in
            let repos = Repositories(pool: pool)
            let account = try await repos.passwordAccount()
            let deliveries = PostgresWebhookDeliveryRepository(pool: pool)
            #expect(try await deliveries.oldestPendingAge() == nil)
            let endpoint = try await Self.endpoint(pool)
            try await Self.record(Self.event(account.id), repos)
            try await repos.pool.withConnection { c async throws(PostgresError) in
                try await c.execute("UPDATE webhook_deliveries SET created_at = now() - interval '90 seconds'")
            }
            let age = try #require(try await deliveries.oldestPendingAge())
            #expect(age >= 90 && age < 200)
            _ = try await PostgresWebhookRepository(pool: pool).remove(endpoint)
            #expect(try await deliveries.oldestPendingAge() == nil)
        }
    }
}
