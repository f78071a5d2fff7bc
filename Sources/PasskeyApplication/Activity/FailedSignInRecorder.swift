/// Records a failed sign-in (`sign-in.failed`) of the account that has an address, in a
/// transaction of its own: a failed sign-in changes nothing else, so its event is the whole of the
/// change. Writing it never changes the answer (security round 4, finding 6): whatever goes wrong
/// here, the caller still answers 401 as for an unknown address, and the cause goes to
/// `unrecorded` (the server logs it).
package struct FailedSignInRecorder: Sendable {
    let store: any UnitOfWork
    let unrecorded: @Sendable (RepositoryError) -> Void

    package init(store: any UnitOfWork, unrecorded: @escaping @Sendable (RepositoryError) -> Void = { _ in }) {
        self.store = store
        self.unrecorded = unrecorded
    }

    /// `pending` for the account of `normalizedEmail`; an unknown address records nothing.
    package func record(_ pending: PendingAccountEvent, normalizedEmail: String) async {
        do {
            try await store.transaction { tx async throws(RepositoryError) in
                if let id = try await tx.accounts.find(normalizedEmail: normalizedEmail) {
                    // No wait for the disk: an unknown address writes nothing, so a durable commit
                    // here made a known address's 401 slower (security round 4, finding 11).
                    try await tx.relaxDurability()
                    try await tx.events.record(pending.event(accountID: id))
                }
            }
        } catch {
            unrecorded(error)
        }
    }
}
