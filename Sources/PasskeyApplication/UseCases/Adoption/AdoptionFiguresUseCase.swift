package import PasskeyDomain

/// `GET /v1/operator/adoption?days=N` and `passkey-server adoption [--days N]`: the stages now,
/// one entry per UTC day of the window (today and the N−1 days before it, oldest first, zeros
/// included) and the upgrade rate over the window (spec v3, "Adoption, for operators").
package struct AdoptionFiguresUseCase: Sendable {
    let adoption: any AdoptionRepository
    let clock: any WallClock

    /// The window's length when none is asked for, and the lengths allowed.
    package static let defaultDays = 30
    package static let allowedDays = 1...366

    package init(adoption: any AdoptionRepository, clock: any WallClock) {
        self.adoption = adoption
        self.clock = clock
    }

    package func execute(days: Int = defaultDays) async throws(AdoptionFiguresError) -> AdoptionFigures {
        guard Self.allowedDays.contains(days) else { throw .invalidDays }
        let now = clock.now
        let today = UTCDay(containing: now)
        let window = today.adding(days: -(days - 1))...today
        let adoption = adoption
        let accounts = try await AdoptionFiguresError.catching { () async throws(RepositoryError) in
            try await adoption.accountStages()
        }
        let counts = try await AdoptionFiguresError.catching { () async throws(RepositoryError) in
            try await adoption.dailyCounts(days: window)
        }
        let upgrade = try await AdoptionFiguresError.catching { () async throws(RepositoryError) in
            try await adoption.upgrade(days: window)
        }
        return AdoptionFigures(
            generatedAt: now, accounts: accounts, days: Self.days(window, counts: counts), upgrade: upgrade)
    }

    /// Every day of `window` in order, each with its counts; counts outside the window or of
    /// methods the figures do not show are left out.
    static func days(_ window: ClosedRange<UTCDay>, counts: [AdoptionEventCount]) -> [AdoptionFigures.Day] {
        let first = window.lowerBound.daysSince1970
        var days = (first...window.upperBound.daysSince1970).map {
            AdoptionFigures.Day(date: UTCDay(daysSince1970: $0))
        }
        for count in counts where window.contains(count.day) {
            let index = count.day.daysSince1970 - first
            switch (count.kind, count.method) {
            case (.signIn, "password"): days[index].signIns.password += count.count
            case (.signIn, "passkey"): days[index].signIns.passkey += count.count
            case (.signIn, "recovery"): days[index].signIns.recovery += count.count
            case (.signIn, "email"): days[index].signIns.email += count.count
            case (.passkeyAdded, "modal"): days[index].passkeysAdded.modal += count.count
            case (.passkeyAdded, "conditional"): days[index].passkeysAdded.conditional += count.count
            case (.passkeyAdded, "sign-up"): days[index].passkeysAdded.signUp += count.count
            case (.accountCreated, "password"), (.accountCreated, "import"):
                days[index].accountsCreated.password += count.count
            case (.accountCreated, "passkey"): days[index].accountsCreated.passkey += count.count
            case (.passwordRemoved, _): days[index].passwordsRemoved += count.count
            default: break
            }
        }
        return days
    }
}
