internal import Foundation

/// Reads and writes `timestamptz` text (the connection sets `TimeZone` to UTC where it may; any
/// offset PostgreSQL writes is read correctly, for connections behind a pooler).
enum PostgresTimestamp {
    /// `2026-11-29T18:00:00.123456Z`.
    static func format(_ date: Date) -> String {
        let totalMicros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        var seconds = Int64((totalMicros / 1_000_000).rounded(.down))
        var micros = Int64(totalMicros) - seconds * 1_000_000
        if micros < 0 {
            micros += 1_000_000
            seconds -= 1
        }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (y, m, d) = civil(fromDays: days)
        let hh = secondOfDay / 3600
        let mm = (secondOfDay % 3600) / 60
        let ss = secondOfDay % 60
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(hh, 2)):\(pad(mm, 2)):\(pad(ss, 2)).\(pad(micros, 6))Z"
    }

    /// Parses `2026-11-29 18:00:00[.ffffff]+00` (PostgreSQL's text output; any `±HH[:MM[:SS]]`
    /// offset).
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for i in range {
                guard i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 else { return nil }
                value = value * 10 + Int64(bytes[i] - 48)
            }
            return value
        }
        guard let y = number(0..<4), let mo = number(5..<7), let d = number(8..<10),
            let h = number(11..<13), let mi = number(14..<16), let s = number(17..<19)
        else { return nil }
        var index = 19
        var micros: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                if digits < 6 { micros = micros * 10 + Int64(bytes[index] - 48) }
                digits += 1
                index += 1
            }
            if digits < 6 { for _ in digits..<6 { micros *= 10 } }
        }
        let rest = Array(bytes[index...])
        var offset: Int64 = 0
        if !rest.isEmpty, rest != [UInt8(ascii: "Z")] {
            // ±HH, ±HH:MM or ±HH:MM:SS (PostgreSQL's ISO output for the session's TimeZone).
            guard rest[0] == UInt8(ascii: "+") || rest[0] == UInt8(ascii: "-"), [3, 6, 9].contains(rest.count) else {
                return nil
            }
            var parts: [Int64] = []
            var position = 1
            while position < rest.count {
                guard position + 2 <= rest.count, let part = number(index + position..<index + position + 2) else {
                    return nil
                }
                parts.append(part)
                position += 2
                if position < rest.count {
                    guard rest[position] == UInt8(ascii: ":") else { return nil }
                    position += 1
                }
            }
            let magnitude =
                (parts.first ?? 0) * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0)
            offset = rest[0] == UInt8(ascii: "-") ? -magnitude : magnitude
        }
        let days = days(fromCivil: y, mo, d)
        let seconds = days * 86_400 + h * 3600 + mi * 60 + s - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(micros) / 1_000_000)
    }

    // Howard Hinnant's days-from-civil algorithms (proleptic Gregorian calendar).
    private static func days(fromCivil y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}
