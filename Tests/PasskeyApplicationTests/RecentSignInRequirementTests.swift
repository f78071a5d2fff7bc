import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

/// The one recent-sign-in rule that every step-up use case depends on through `RecentSession`.
@Suite struct RecentSignInRequirementTests {
    @Test(arguments: [AuthenticationMethod.password, .passkey, .recovery])
    func aSessionUpToTheWindowOldPassesAndAnOlderOneIsRefused(method: AuthenticationMethod) throws {
        let clock = FixedClock()
        let requirement = RecentSignInRequirement(policy: PasskeyPolicy(reauthenticationWindow: 600), clock: clock)
        let active = ActiveSession.signedIn(method: method, at: clock.now)
        clock.advance(by: 600)
        let recent = try requirement.check(active)
        #expect(recent.active == active)
        #expect(recent.account == active.account)
        #expect(recent.session == active.session)
        clock.advance(by: 1)
        #expect(throws: RecentSignInError.reauthenticationRequired) { try requirement.check(active) }
    }

    @Test func theWindowIsTheConfiguredOne() throws {
        let clock = FixedClock()
        let requirement = RecentSignInRequirement(policy: PasskeyPolicy(reauthenticationWindow: 30), clock: clock)
        let active = ActiveSession.signedIn(at: clock.now.addingTimeInterval(-31))
        #expect(throws: RecentSignInError.reauthenticationRequired) { try requirement.check(active) }
    }
}
