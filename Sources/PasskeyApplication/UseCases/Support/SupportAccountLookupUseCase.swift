package import PasskeyDomain

/// (v4) The support desk's reads (role `viewer`): find the account of an exact address, read one
/// account, and page through its activity. Reads are not account events; the controller logs
/// each one with the operator's name.
package struct SupportAccountLookupUseCase: Sendable {
    let store: any UnitOfWork
    let events: any AccountEventRepository
    let clock: any WallClock

    package init(store: any UnitOfWork, events: any AccountEventRepository, clock: any WallClock) {
        self.store = store
        self.events = events
        self.clock = clock
    }

    /// The account whose (normalised) address is exactly `rawEmail`: none or one.
    package func find(email rawEmail: String) async throws(SupportDeskError) -> [SupportAccount] {
        guard let email = EmailAddress(rawEmail) else { throw .invalidRequest("email is not an email address.") }
        let now = clock.now
        let found = try await store.transaction(as: SupportDeskError.self) {
            tx async throws(RepositoryError) -> SupportAccount? in
            guard let id = try await tx.accounts.find(normalizedEmail: email.normalized),
                let snapshot = try await tx.accounts.read(id)
            else { return nil }
            return try await SupportAccount.read(snapshot, at: now, in: tx)
        }
        return found.map { [$0] } ?? []
    }

    /// The account; `.notFound` when there is none (a malformed ID names none).
    package func account(_ id: AccountID?) async throws(SupportDeskError) -> SupportAccount {
        guard let id else { throw .notFound }
        let now = clock.now
        let found = try await store.transaction(as: SupportDeskError.self) {
            tx async throws(RepositoryError) -> SupportAccount? in
            guard let snapshot = try await tx.accounts.read(id) else { return nil }
            return try await SupportAccount.read(snapshot, at: now, in: tx)
        }
        guard let found else { throw .notFound }
        return found
    }

    /// A page of the account's activity, newest first, as the user sees it; `limit` within
    /// `AccountActivityUseCase.limits` (the controller answers 400 otherwise).
    package func activity(of id: AccountID?, limit: Int, before: ActivityCursor?) async throws(SupportDeskError)
        -> ActivityPage
    {
        guard let id else { throw .notFound }
        guard AccountActivityUseCase.limits.contains(limit) else { throw .invalidRequest("limit is out of range.") }
        let exists = try await store.transaction(as: SupportDeskError.self) { tx async throws(RepositoryError) in
            try await tx.accounts.read(id) != nil
        }
        guard exists else { throw .notFound }
        let events = events
        return try await SupportDeskError.catching { () async throws(RepositoryError) in
            try await ActivityPage.read(limit: limit, from: events, of: id, before: before)
        }
    }
}
