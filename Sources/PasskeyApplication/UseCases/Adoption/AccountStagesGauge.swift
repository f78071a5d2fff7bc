package import Foundation
package import PasskeyDomain

/// `/metrics`' `passkey_accounts{stage=…}`: the accounts by stage, recomputed at most once per
/// `maximumAge` (a minute), never per scrape, since counting a million accounts is no scrape's
/// work. Scrapes that arrive while it is being recomputed wait for that one query. When the
/// database cannot answer, the last figures stay (nil before the first success).
package actor AccountStagesGauge {
    private let adoption: any AdoptionRepository
    private let clock: any WallClock
    private let maximumAge: TimeInterval
    private var last: (stages: AccountStages, at: Date)?
    private var refreshing: Task<AccountStages?, Never>?

    package init(adoption: any AdoptionRepository, clock: any WallClock, maximumAge: TimeInterval = 60) {
        self.adoption = adoption
        self.clock = clock
        self.maximumAge = maximumAge
    }

    /// The stages, at most `maximumAge` old when the database answers.
    package func current() async -> AccountStages? {
        let now = clock.now
        if let last, now.timeIntervalSince(last.at) < maximumAge, now >= last.at { return last.stages }
        if let refreshing { return await refreshing.value }
        let adoption = adoption
        let task = Task { () -> AccountStages? in try? await adoption.accountStages() }
        refreshing = task
        let stages = await task.value
        refreshing = nil
        if let stages {
            last = (stages, now)
        }
        return stages ?? last?.stages
    }
}
