package import PasskeyApplication
package import PasskeyDomain
internal import Synchronization

/// An `AdoptionRepository` that answers what a test set, records the windows it was asked for,
/// and counts the stage queries (what `/metrics`' once-a-minute rule is about).
package final class ScriptedAdoptionRepository: AdoptionRepository {
    private struct State {
        var stages = AccountStages(total: 0, passwordOnly: 0, passwordAndPasskey: 0, passkeyOnly: 0, emailVerified: 0)
        var counts: [AdoptionEventCount] = []
        var upgrade = AdoptionFigures.Upgrade(passwordSignIns: 0, followedByPasskey: 0)
        var failure: RepositoryError?
        var stageQueries = 0
        var windows: [ClosedRange<UTCDay>] = []
    }
    private let state = Mutex(State())

    package init() {}

    package func set(stages: AccountStages) { state.withLock { $0.stages = stages } }
    package func set(counts: [AdoptionEventCount]) { state.withLock { $0.counts = counts } }
    package func set(upgrade: AdoptionFigures.Upgrade) { state.withLock { $0.upgrade = upgrade } }
    /// Every query fails with `failure` until it is set back to nil.
    package func fail(with failure: RepositoryError?) { state.withLock { $0.failure = failure } }

    /// How many times `accountStages()` ran.
    package var stageQueries: Int { state.withLock { $0.stageQueries } }
    /// The windows `dailyCounts` and `upgrade` were asked for, in order.
    package var windows: [ClosedRange<UTCDay>] { state.withLock { $0.windows } }

    package func accountStages() async throws(RepositoryError) -> AccountStages {
        let (stages, failure) = state.withLock { state in
            state.stageQueries += 1
            return (state.stages, state.failure)
        }
        if let failure { throw failure }
        return stages
    }

    package func dailyCounts(days: ClosedRange<UTCDay>) async throws(RepositoryError) -> [AdoptionEventCount] {
        let (counts, failure) = state.withLock { state in
            state.windows.append(days)
            return (state.counts, state.failure)
        }
        if let failure { throw failure }
        return counts
    }

    package func upgrade(days: ClosedRange<UTCDay>) async throws(RepositoryError) -> AdoptionFigures.Upgrade {
        let (upgrade, failure) = state.withLock { state in
            state.windows.append(days)
            return (state.upgrade, state.failure)
        }
        if let failure { throw failure }
        return upgrade
    }
}
