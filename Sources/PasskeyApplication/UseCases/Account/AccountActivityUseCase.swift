/// `GET /v1/account/activity`: a page of the signed-in account's events, newest first.
package struct AccountActivityUseCase: Sendable {
    /// `limit` when the request gives none, and the most it may ask for.
    package static let defaultLimit = 50
    package static let limits = 1...100

    let events: any AccountEventRepository

    package init(events: any AccountEventRepository) {
        self.events = events
    }

    /// `limit` must be within `limits` (the controller answers 400 otherwise); one more row is
    /// fetched to know whether a next page exists.
    package func execute(session: ActiveSession, limit: Int = defaultLimit, before: ActivityCursor?)
        async throws(AccountManagementError) -> ActivityPage
    {
        guard Self.limits.contains(limit) else {
            throw .internalFailure(cause: FailureCause(BrokenInvariant("activity limit \(limit) out of range")))
        }
        return try await AccountManagementError.catching { () async throws(RepositoryError) in
            try await ActivityPage.read(limit: limit, from: events, of: session.account.id, before: before)
        }
    }
}
