package import Foundation

/// One calendar day in UTC, as days since 1970-01-01: the unit of the adoption figures' `days`.
package struct UTCDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    package let daysSince1970: Int

    package init(daysSince1970: Int) { self.daysSince1970 = daysSince1970 }

    /// The UTC day `date` falls on.
    package init(containing date: Date) {
        self.daysSince1970 = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    /// Its first instant, 00:00:00 UTC.
    package var start: Date { Date(timeIntervalSince1970: TimeInterval(daysSince1970) * 86_400) }

    package func adding(days: Int) -> UTCDay { UTCDay(daysSince1970: daysSince1970 + days) }

    /// `YYYY-MM-DD`.
    package var description: String {
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let z = daysSince1970 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let y = String(year)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-\(two(month))-\(two(day))"
    }

    package static func < (lhs: UTCDay, rhs: UTCDay) -> Bool { lhs.daysSince1970 < rhs.daysSince1970 }
}
