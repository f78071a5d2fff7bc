package import PasskeyDomain

/// What the adoption figures read (spec v3, "Adoption, for operators"): the stages from the
/// credentials held now, everything else from `account_events` alone.
package protocol AdoptionRepository: Sendable {
    /// The accounts by stage, and how many have a verified address.
    func accountStages() async throws(RepositoryError) -> AccountStages

    /// The counted events (`sign-in`, `passkey.added`, `account.created`, `password.removed`) of
    /// the UTC days `days`, grouped by day, kind and method; days without any are absent.
    func dailyCounts(days: ClosedRange<UTCDay>) async throws(RepositoryError) -> [AdoptionEventCount]

    /// Password sign-ins of accounts that had no passkey then (`had_passkey` false) during
    /// `days`, and how many of their sessions have a `passkey.added` event.
    func upgrade(days: ClosedRange<UTCDay>) async throws(RepositoryError) -> AdoptionFigures.Upgrade
}

/// How many events of one kind and method one UTC day has.
package struct AdoptionEventCount: Hashable, Sendable {
    package let day: UTCDay
    package let kind: AccountActivity.Kind
    package let method: String?
    package let count: Int

    package init(day: UTCDay, kind: AccountActivity.Kind, method: String?, count: Int) {
        self.day = day
        self.kind = kind
        self.method = method
        self.count = count
    }
}
