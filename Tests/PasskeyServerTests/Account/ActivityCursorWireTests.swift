import Foundation
import PasskeyApplication
import PasskeyDomain
import Testing

@testable import PasskeyServer

/// The opaque `before` / `next` value of `GET /v1/account/activity` (24 bytes, 32 base64url
/// characters), and the query's strict reading.
@Suite struct ActivityCursorWireTests {
    static let id = AccountEventID(UUID(uuidString: "01234567-89ab-cdef-0123-456789abcdef")!)

    @Test func theCursorIsBigEndianMicrosecondsThenTheUUIDsBytes() {
        let cursor = ActivityCursor(microsecondsSince1970: 1_795_000_000_123_456, eventID: Self.id)
        #expect(cursor.wireValue == "AAZgiwFhEkABI0VniavN7wEjRWeJq83v")
        #expect(ActivityCursor(wireValue: "AAZgiwFhEkABI0VniavN7wEjRWeJq83v") == cursor)
        let tiny = ActivityCursor(
            microsecondsSince1970: 1, eventID: AccountEventID(UUID(uuidString: "00000000-0000-0000-0000-000000000000")!)
        )
        #expect(tiny.wireValue == "AAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAA")
        let negative = ActivityCursor(
            microsecondsSince1970: -1,
            eventID: AccountEventID(UUID(uuidString: "ffffffff-ffff-ffff-ffff-ffffffffffff")!))
        #expect(negative.wireValue == "________________________________")
        #expect(ActivityCursor(wireValue: negative.wireValue) == negative)
    }

    @Test func anEventsCursorRoundTripsToTheMicrosecond() {
        for micros: Int64 in [0, 1_795_000_000_000_001, 1_795_000_000_999_999, 4_102_444_799_999_999] {
            let date = Date(timeIntervalSince1970: Double(micros) / 1_000_000)
            let cursor = ActivityCursor(occurredAt: date, eventID: AccountEventID())
            #expect(cursor.microsecondsSince1970 == micros)
            let back = ActivityCursor(wireValue: cursor.wireValue)
            #expect(back == cursor)
            #expect(back?.microsecondsSince1970 == micros)
        }
    }

    @Test(arguments: [
        "", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA+", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/",
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA ", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAé", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAA====",
    ])
    func anythingElseIsNoCursor(_ text: String) {
        #expect(ActivityCursor(wireValue: text) == nil)
    }

    @Test func theQueryDefaultsAndIgnoresOtherParameters() throws {
        #expect(try ActivityQuery(nil) == ActivityQuery())
        #expect(try ActivityQuery("") == ActivityQuery())
        #expect(try ActivityQuery("limit=7&x=1&&y") == ActivityQuery(limit: 7))
        #expect(try ActivityQuery("limit=100").limit == 100)
        #expect(try ActivityQuery("limit=1").limit == 1)
        let cursor = ActivityCursor(microsecondsSince1970: 5, eventID: Self.id)
        #expect(try ActivityQuery("before=\(cursor.wireValue)&limit=3") == ActivityQuery(limit: 3, before: cursor))
    }

    @Test(arguments: [
        "limit=0", "limit=101", "limit=-1", "limit=abc", "limit=", "limit", "limit=+5", "limit=%2B5", "limit= 5",
        "limit=0x10", "limit=99999999999999999999", "limit=1&limit=1", "before=", "before=x", "before=a&before=b",
        "limit=%FF",
    ])
    func badValuesAreInvalidRequests(_ query: String) {
        #expect {
            try ActivityQuery(query)
        } throws: { error in
            (error as? Problem)?.status == 400 && (error as? Problem)?.code == .invalidRequest
        }
    }
}
