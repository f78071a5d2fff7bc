package import Foundation

/// One row of a result, values in PostgreSQL's text format (copied out of the `PGresult`).
package struct PostgresRow: Sendable {
    let values: [[UInt8]?]

    package var count: Int { values.count }

    /// True when the column is SQL NULL (or beyond the row).
    package func isNull(_ column: Int) -> Bool {
        guard column >= 0, column < values.count else { return true }
        return values[column] == nil
    }

    private func raw(_ column: Int) throws(PostgresError) -> [UInt8] {
        guard column >= 0, column < values.count, let value = values[column] else {
            throw PostgresError(kind: .decoding, diagnostic: "column \(column) is NULL or missing")
        }
        return value
    }

    package func string(_ column: Int) throws(PostgresError) -> String {
        String(decoding: try raw(column), as: UTF8.self)
    }

    package func optionalString(_ column: Int) throws(PostgresError) -> String? {
        isNull(column) ? nil : try string(column)
    }

    package func int(_ column: Int) throws(PostgresError) -> Int {
        guard let value = Int(try string(column)) else {
            throw PostgresError(kind: .decoding, diagnostic: "column \(column) is not an integer")
        }
        return value
    }

    package func bool(_ column: Int) throws(PostgresError) -> Bool {
        switch try string(column) {
        case "t", "true": return true
        case "f", "false": return false
        default: throw PostgresError(kind: .decoding, diagnostic: "column \(column) is not a boolean")
        }
    }

    package func optionalBool(_ column: Int) throws(PostgresError) -> Bool? {
        isNull(column) ? nil : try bool(column)
    }

    package func uuid(_ column: Int) throws(PostgresError) -> UUID {
        guard let value = UUID(uuidString: try string(column)) else {
            throw PostgresError(kind: .decoding, diagnostic: "column \(column) is not a uuid")
        }
        return value
    }

    package func date(_ column: Int) throws(PostgresError) -> Date {
        guard let value = PostgresTimestamp.parse(try string(column)) else {
            throw PostgresError(kind: .decoding, diagnostic: "column \(column) is not a timestamptz")
        }
        return value
    }

    package func optionalDate(_ column: Int) throws(PostgresError) -> Date? {
        isNull(column) ? nil : try date(column)
    }

    /// A `bytea` column in hex output format (`\x0a1b…`).
    package func bytes(_ column: Int) throws(PostgresError) -> [UInt8] {
        let text = try raw(column)
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x"), text.count % 2 == 0 else {
            throw PostgresError(kind: .decoding, diagnostic: "column \(column) is not hex bytea")
        }
        var out = [UInt8]()
        out.reserveCapacity((text.count - 2) / 2)
        var i = 2
        while i < text.count {
            guard let hi = Self.nibble(text[i]), let lo = Self.nibble(text[i + 1]) else {
                throw PostgresError(kind: .decoding, diagnostic: "column \(column) has a bad hex digit")
            }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    package func optionalBytes(_ column: Int) throws(PostgresError) -> [UInt8]? {
        isNull(column) ? nil : try bytes(column)
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 97...102: c - 87
        case 65...70: c - 55
        default: nil
        }
    }
}
