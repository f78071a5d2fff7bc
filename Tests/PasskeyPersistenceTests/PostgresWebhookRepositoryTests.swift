import Foundation
import PasskeyApplication
import PasskeyDatabaseTestSupport
import PasskeyDomain
import PasskeyLibpq
import PasskeyPersistence
import PasskeyTestSupport
import Testing

/// The endpoints in SQL: stored with their sealed secret, listed with their delivery counts,
/// a secret rotated with the previous one live until its time, removed with their pending
/// deliveries, and the endpoint limit.
@Suite struct PostgresWebhookRepositoryTests {
    static func webhook(_ url: String = "https://hooks.example.com/a", events: [String] = []) throws -> Webhook {
        Webhook(
            id: WebhookID(), url: try #require(WebhookURL(url)), events: events,
            description: try #require(WebhookDescription("CRM")), createdAt: DomainFixtures.now())
    }

    @Test func anEndpointIsStoredListedAndRemoved() async throws {
        try await withTestDatabase { _, pool in
            let repository = PostgresWebhookRepository(pool: pool)
            let first = try Self.webhook(events: ["stage.changed", "account.deleted"])
            let second = try Self.webhook("http://127.0.0.1:9/b")
            #expect(try await repository.add(first, sealedSecret: [1, 2, 3], limit: 10))
            #expect(try await repository.add(second, sealedSecret: [4, 5], limit: 10))
            let listed = try await repository.list()
            #expect(listed.map(\.id) == [first.id, second.id])
            #expect(listed[0].events == ["stage.changed", "account.deleted"])
            #expect(listed[0].url == first.url && listed[0].description.value == "CRM")
            #expect(listed[0].createdAt == first.createdAt)
            #expect(listed[0].pending == 0 && listed[0].abandoned == 0 && listed[0].lastDeliveredAt == nil)
            #expect(listed[1].events.isEmpty)
            #expect(try await repository.sealedSecrets().map(\.sealed) == [[1, 2, 3], [4, 5]])
            #expect(try await repository.remove(first.id))
            #expect(!(try await repository.remove(first.id)), "once")
            #expect(try await repository.list().map(\.id) == [second.id])
            #expect(try await repository.sealedSecrets().map(\.id) == [second.id])
        }
    }

    @Test func theLimitCountsEndpointsNotRemoved() async throws {
        try await withTestDatabase { _, pool in
            let repository = PostgresWebhookRepository(pool: pool)
            let first = try Self.webhook()
            #expect(try await repository.add(first, sealedSecret: [1], limit: 2))
            #expect(try await repository.add(try Self.webhook(), sealedSecret: [1], limit: 2))
            #expect(!(try await repository.add(try Self.webhook(), sealedSecret: [1], limit: 2)))
            _ = try await repository.remove(first.id)
            #expect(try await repository.add(try Self.webhook(), sealedSecret: [1], limit: 2))
        }
    }

    /// A registration still in its transaction (here: one that has taken the lock and inserted,
    /// and commits 0.5 s later) is counted by the next, on any connection or instance; counting
    /// under READ COMMITTED alone would not see it and store one endpoint past the limit.
    @Test func aRegistrationInFlightCountsAgainstTheLimit() async throws {
        try await withTestDatabase { _, pool in
            let repository = PostgresWebhookRepository(pool: pool)
            let inFlight = try Self.webhook()
            let (locked, lockedSignal) = AsyncStream.makeStream(of: Void.self)
            async let first: Void = pool.withTransaction { connection async throws(PostgresError) in
                try await connection.query(PostgresWebhookRepository.registrationLock)
                try await connection.query(
                    """
                    INSERT INTO webhooks (id, url, events, description, secret, created_at)
                    VALUES (\(inFlight.id.uuid), \(inFlight.url.value), '{}', 'in flight', '\\x01', now())
                    """)
                lockedSignal.yield()
                try await connection.query("SELECT pg_sleep(0.5)")
            }
            for await _ in locked { break }
            #expect(!(try await repository.add(try Self.webhook(), sealedSecret: [1], limit: 1)))
            try await first
            #expect(try await repository.list().map(\.id) == [inFlight.id])
        }
    }

    @Test func aRotationKeepsThePreviousSecretLiveUntilItsTime() async throws {
        try await withTestDatabase { _, pool in
            let repository = PostgresWebhookRepository(pool: pool)
            let webhook = try Self.webhook()
            _ = try await repository.add(webhook, sealedSecret: [1], limit: 10)
            #expect(try await repository.replaceSecret(of: webhook.id, with: [2], previousUntil: Date() + 3600))
            #expect(try await repository.sealedSecrets().map(\.sealed) == [[2], [1]])
            // Past its time the previous secret no longer counts.
            #expect(try await repository.replaceSecret(of: webhook.id, with: [3], previousUntil: Date() - 1))
            #expect(try await repository.sealedSecrets().map(\.sealed) == [[3]])
            #expect(!(try await repository.replaceSecret(of: WebhookID(), with: [4], previousUntil: Date())))
        }
    }
}
