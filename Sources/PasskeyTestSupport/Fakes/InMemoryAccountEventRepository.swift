package import PasskeyApplication
package import PasskeyDomain
internal import Synchronization

/// `AccountEventRepository` in memory for unit tests of use cases: `append` seeds events, reads
/// follow the page order of the real one (occurredAt, then the ID's bytes, descending).
/// `failNext` makes the next call throw; `requestedLimits` records what the use case asked for.
package final class InMemoryAccountEventRepository: AccountEventRepository {
    private struct State {
        var events: [AccountEvent] = []
        var failNext: RepositoryError?
        var requestedLimits: [Int] = []
    }

    private let state = Mutex(State())

    package init() {}

    package func append(_ event: AccountEvent) { state.withLock { $0.events.append(event) } }
    package func failNext(_ error: RepositoryError) { state.withLock { $0.failNext = error } }
    package var requestedLimits: [Int] { state.withLock { $0.requestedLimits } }

    package func events(accountID: AccountID, before: ActivityCursor?, limit: Int) async throws(RepositoryError)
        -> [AccountEvent]
    {
        try state.withLock { (state) throws(RepositoryError) -> [AccountEvent] in
            state.requestedLimits.append(limit)
            if let error = state.failNext {
                state.failNext = nil
                throw error
            }
            let own = state.events.filter { $0.accountID == accountID && (before?.precedes($0) ?? true) }
            // Newest first: `a` before `b` when the cursor of `a` precedes `b`.
            return Array(own.sorted { ActivityCursor(after: $0).precedes($1) }.prefix(limit))
        }
    }
}
