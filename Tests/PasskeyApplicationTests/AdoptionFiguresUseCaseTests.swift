import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// The adoption figures' branches over a scripted repository: the window, the days with zeros,
/// which counts land where, the rate, bad `days`, and repository failures.
@Suite struct AdoptionFiguresUseCaseTests {
    /// 2026-12-02T10:30:00Z.
    static let now = Date(timeIntervalSince1970: 1_796_207_400)
    static let today = UTCDay(containing: now)

    @Test func theWindowIsTodayAndTheDaysBeforeItOldestFirstWithZeros() async throws {
        let repository = ScriptedAdoptionRepository()
        let figures = try await AdoptionFiguresUseCase(adoption: repository, clock: FixedClock(Self.now))
            .execute(days: 3)
        #expect(figures.days.map(\.date.description) == ["2026-11-30", "2026-12-01", "2026-12-02"])
        #expect(figures.days.allSatisfy { $0 == AdoptionFigures.Day(date: $0.date) })
        #expect(
            repository.windows == [Self.today.adding(days: -2)...Self.today, Self.today.adding(days: -2)...Self.today])
        #expect(figures.generatedAt == Self.now)
        #expect(figures.upgrade.rate == 0)
        let single = try await AdoptionFiguresUseCase(adoption: repository, clock: FixedClock(Self.now)).execute(
            days: 1)
        #expect(single.days.map(\.date) == [Self.today])
        let year = try await AdoptionFiguresUseCase(adoption: repository, clock: FixedClock(Self.now)).execute(
            days: 366)
        #expect(year.days.count == 366)
        #expect(year.days.first?.date == Self.today.adding(days: -365))
        let standard = try await AdoptionFiguresUseCase(adoption: repository, clock: FixedClock(Self.now)).execute()
        #expect(standard.days.count == 30)
    }

    @Test func aDayStartsAtUTCMidnight() async throws {
        let midnight = UTCDay(containing: Self.now).start
        let justBefore = try await AdoptionFiguresUseCase(
            adoption: ScriptedAdoptionRepository(), clock: FixedClock(midnight.addingTimeInterval(-0.001))
        ).execute(days: 1)
        let atMidnight = try await AdoptionFiguresUseCase(
            adoption: ScriptedAdoptionRepository(), clock: FixedClock(midnight)
        ).execute(days: 1)
        #expect(justBefore.days.map(\.date.description) == ["2026-12-01"])
        #expect(atMidnight.days.map(\.date.description) == ["2026-12-02"])
    }

    @Test func eachCountLandsInItsDayAndFigure() async throws {
        let repository = ScriptedAdoptionRepository()
        let (today, yesterday) = (Self.today, Self.today.adding(days: -1))
        repository.set(counts: [
            .init(day: yesterday, kind: .signIn, method: "password", count: 5),
            .init(day: yesterday, kind: .signIn, method: "passkey", count: 7),
            .init(day: today, kind: .signIn, method: "recovery", count: 1),
            .init(day: today, kind: .signIn, method: "email", count: 2),
            .init(day: today, kind: .passkeyAdded, method: "modal", count: 3),
            .init(day: today, kind: .passkeyAdded, method: "conditional", count: 4),
            .init(day: today, kind: .passkeyAdded, method: "sign-up", count: 6),
            .init(day: today, kind: .accountCreated, method: "password", count: 8),
            .init(day: today, kind: .accountCreated, method: "import", count: 9),
            .init(day: today, kind: .accountCreated, method: "passkey", count: 10),
            .init(day: yesterday, kind: .passwordRemoved, method: nil, count: 11),
            // Outside the window, and kinds the figures do not show: left out.
            .init(day: today.adding(days: -5), kind: .signIn, method: "password", count: 100),
            .init(day: today.adding(days: 1), kind: .signIn, method: "password", count: 100),
            .init(day: today, kind: .signInFailed, method: "password", count: 100),
            .init(day: today, kind: .accountReclaimed, method: nil, count: 100),
        ])
        repository.set(upgrade: .init(passwordSignIns: 8, followedByPasskey: 2))
        repository.set(
            stages: AccountStages(total: 10, passwordOnly: 5, passwordAndPasskey: 3, passkeyOnly: 1, emailVerified: 4))
        let figures = try await AdoptionFiguresUseCase(adoption: repository, clock: FixedClock(Self.now))
            .execute(days: 3)
        var expectedYesterday = AdoptionFigures.Day(date: yesterday)
        expectedYesterday.signIns.password = 5
        expectedYesterday.signIns.passkey = 7
        expectedYesterday.passwordsRemoved = 11
        var expectedToday = AdoptionFigures.Day(date: today)
        expectedToday.signIns.recovery = 1
        expectedToday.signIns.email = 2
        expectedToday.passkeysAdded = .init()
        expectedToday.passkeysAdded.modal = 3
        expectedToday.passkeysAdded.conditional = 4
        expectedToday.passkeysAdded.signUp = 6
        expectedToday.accountsCreated.password = 17
        expectedToday.accountsCreated.passkey = 10
        #expect(figures.days == [AdoptionFigures.Day(date: today.adding(days: -2)), expectedYesterday, expectedToday])
        #expect(figures.upgrade.rate == 0.25)
        #expect(figures.accounts.passwordAndPasskey == 3)
    }

    @Test(arguments: [0, -1, 367, 1000, Int.min, Int.max])
    func daysOutsideOneTo366AreRefusedBeforeAnyQuery(days: Int) async {
        let repository = ScriptedAdoptionRepository()
        await #expect(throws: AdoptionFiguresError.invalidDays) {
            try await AdoptionFiguresUseCase(adoption: repository, clock: FixedClock(Self.now)).execute(days: days)
        }
        #expect(repository.stageQueries == 0 && repository.windows.isEmpty)
    }

    @Test func repositoryErrorsAreUnavailableOrAnInternalFailureWithTheirCause() async {
        let repository = ScriptedAdoptionRepository()
        let useCase = AdoptionFiguresUseCase(adoption: repository, clock: FixedClock(Self.now))
        repository.fail(with: .unavailable)
        await #expect(throws: AdoptionFiguresError.unavailable) { try await useCase.execute() }
        repository.fail(with: .scripted("accountStages"))
        await #expect(throws: AdoptionFiguresError.internalFailure(cause: .scripted("accountStages"))) {
            try await useCase.execute()
        }
    }
}

/// `/metrics`' `passkey_accounts`: recomputed at most once a minute, not per scrape.
@Suite struct AccountStagesGaugeTests {
    static let stages = AccountStages(
        total: 6, passwordOnly: 3, passwordAndPasskey: 2, passkeyOnly: 1, emailVerified: 0)

    @Test func scrapesWithinAMinuteRunTheQueryOnceAndAfterAMinuteAgain() async {
        let repository = ScriptedAdoptionRepository()
        repository.set(stages: Self.stages)
        let clock = FixedClock()
        let gauge = AccountStagesGauge(adoption: repository, clock: clock)
        #expect(await gauge.current().stages == Self.stages)
        clock.advance(by: 30)
        var changed = Self.stages
        changed.passkeyOnly = 2
        repository.set(stages: changed)
        #expect(await gauge.current().stages == Self.stages)
        clock.advance(by: 29.9)
        #expect(await gauge.current().stages == Self.stages)
        #expect(repository.stageQueries == 1)
        clock.advance(by: 0.1)
        #expect(await gauge.current().stages == changed)
        #expect(repository.stageQueries == 2)
    }

    @Test func aFailedQueryKeepsTheLastFiguresAndIsTriedAgainNextScrape() async {
        let repository = ScriptedAdoptionRepository()
        let clock = FixedClock()
        let gauge = AccountStagesGauge(adoption: repository, clock: clock)
        repository.fail(with: .unavailable)
        let first = await gauge.current()
        #expect(first.stages == nil)
        #expect(first.failure == .unavailable)  // the cause, for the caller's log
        repository.fail(with: nil)
        repository.set(stages: Self.stages)
        #expect(await gauge.current().stages == Self.stages)
        clock.advance(by: 61)
        repository.fail(with: .unavailable)
        let stale = await gauge.current()
        #expect(stale.stages == Self.stages)
        #expect(stale.failure == .unavailable)
        #expect(repository.stageQueries == 3)
    }
}
