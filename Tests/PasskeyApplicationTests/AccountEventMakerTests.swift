import Foundation
import PasskeyApplication
import PasskeyDomain
import PasskeyTestSupport
import Testing

@Suite struct AccountEventMakerTests {
    let origin = RequestOrigin(clientAddress: "192.0.2.1", userAgent: "Agent")

    /// Event IDs are version 7 UUIDs: the event's millisecond first, so the primary key grows in
    /// time order; the rest is random.
    @Test func idsAreVersion7WithTheEventsTimeFirst() {
        let maker = AccountEventMaker(random: SequentialRandomGenerator())
        let date = Date(timeIntervalSince1970: 1_764_633_600.123)
        let event = maker.event(.passwordSet, accountID: AccountID(), sessionID: nil, at: date, from: origin)
        let bytes = withUnsafeBytes(of: event.id.uuid.uuid) { Array($0) }
        let milliseconds = bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        #expect(milliseconds == 1_764_633_600_123)
        #expect(bytes[6] >> 4 == 7)
        #expect(bytes[8] >> 6 == 0b10)
    }

    @Test func laterEventsSortAfterEarlierOnes() {
        let maker = AccountEventMaker(random: SequentialRandomGenerator())
        let start = Date(timeIntervalSince1970: 1_764_633_600)
        let ids = (0..<50).map { i in
            maker.event(
                .passwordSet, accountID: AccountID(), sessionID: nil, at: start.addingTimeInterval(Double(i) * 0.01),
                from: origin
            ).id.description
        }
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
    }
}
