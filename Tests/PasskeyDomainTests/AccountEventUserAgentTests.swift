import Foundation
import PasskeyDomain
import Testing

/// An event's user agent is cut to 256 Unicode scalars, what the column counts (security round 4,
/// finding 6: a cut by characters let 300 combining marks, one character, overflow it).
@Suite struct AccountEventUserAgentTests {
    private static func event(userAgent: String?) -> AccountEvent {
        AccountEvent(
            id: AccountEventID(), accountID: AccountID(), activity: .passwordSet, occurredAt: Date(),
            clientAddress: "192.0.2.1", userAgent: userAgent, sessionID: nil)
    }

    @Test func combiningMarksAreCountedOneByOne() throws {
        let marks = "e" + String(repeating: "\u{0301}", count: 299)
        #expect(marks.count == 1)
        let event = Self.event(userAgent: marks)
        let agent = try #require(event.userAgent)
        #expect(agent.unicodeScalars.count == AccountEvent.maximumUserAgentLength)
        #expect(marks.unicodeScalars.starts(with: agent.unicodeScalars))
    }

    @Test func shortAgentsAreKeptAndNoneIsEmpty() {
        #expect(Self.event(userAgent: "Safari/17").userAgent == "Safari/17")
        #expect(Self.event(userAgent: nil).userAgent == "")
        let long = String(repeating: "x", count: 300)
        #expect(Self.event(userAgent: long).userAgent == String(repeating: "x", count: 256))
    }

    /// (v4) An operator's action: who, not from where.
    @Test func anOperatorsActionHasNoAddressOrAgent() {
        let event = AccountEvent(
            id: AccountEventID(), accountID: AccountID(), activity: .accountUnlocked, occurredAt: Date(),
            actor: SupportAgentName("Ann")!)
        #expect(event.clientAddress == nil)
        #expect(event.userAgent == nil)
        #expect(event.sessionID == nil)
        #expect(event.actor?.value == "Ann")
    }
}
