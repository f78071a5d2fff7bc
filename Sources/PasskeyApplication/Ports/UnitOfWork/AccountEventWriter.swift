package import PasskeyDomain

/// The activity log, inside a transaction: the only writer of account events.
package protocol AccountEventWriter {
    func record(_ event: AccountEvent) async throws(RepositoryError)
}
