package import Foundation
package import PasskeyDomain

/// `/metrics`' `passkey_accounts{stage=…}`: the accounts by stage, recomputed at most once per
/// `maximumAge` (a minute), never per scrape, since counting a million accounts is no scrape's
/// work. Scrapes that arrive while it is being recomputed wait for that one query. When the
/// database cannot answer, the last figures stay (nil before the first success), and the reading
/// carries why, for the caller's log.
package actor AccountStagesGauge {
    /// The figures to show, and why the recomputation that should have refreshed them failed.
    package struct Reading: Sendable {
        package let stages: AccountStages?
        package let failure: RepositoryError?
    }

    private let adoption: any AdoptionRepository
    private let clock: any WallClock
    private let maximumAge: TimeInterval
    private var last: (stages: AccountStages, at: Date)?
    private var refreshing: Task<Result<AccountStages, RepositoryError>, Never>?

    package init(adoption: any AdoptionRepository, clock: any WallClock, maximumAge: TimeInterval = 60) {
        self.adoption = adoption
        self.clock = clock
        self.maximumAge = maximumAge
    }

    /// The stages, at most `maximumAge` old when the database answers.
    package func current() async -> Reading {
        let now = clock.now
        if let last, now.timeIntervalSince(last.at) < maximumAge, now >= last.at {
            return Reading(stages: last.stages, failure: nil)
        }
        let task: Task<Result<AccountStages, RepositoryError>, Never>
        if let refreshing {
            task = refreshing
        } else {
            let adoption = adoption
            task = Task { () -> Result<AccountStages, RepositoryError> in
                do throws(RepositoryError) {
                    return .success(try await adoption.accountStages())
                } catch {
                    return .failure(error)
                }
            }
            refreshing = task
        }
        let result = await task.value
        refreshing = nil
        switch result {
        case .success(let stages):
            last = (stages, now)
            return Reading(stages: stages, failure: nil)
        case .failure(let failure):
            return Reading(stages: last?.stages, failure: failure)
        }
    }
}
