/// A parameterised SQL statement. Interpolated values become `$n` binds, never SQL text,
/// so there is no way to splice data into a statement:
///
///     let q: PostgresQuery = "SELECT 1 FROM accounts WHERE id = \(accountID.uuid)"
package struct PostgresQuery: Sendable, ExpressibleByStringInterpolation {
    package private(set) var sql: String
    package private(set) var binds: [PostgresValue]

    package init(stringLiteral value: String) {
        sql = value
        binds = []
    }

    package init(stringInterpolation: StringInterpolation) {
        sql = stringInterpolation.sql
        binds = stringInterpolation.binds
    }

    package struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds: [PostgresValue] = []

        package init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
            binds.reserveCapacity(interpolationCount)
        }

        package mutating func appendLiteral(_ literal: String) { sql += literal }

        package mutating func appendInterpolation(_ value: some PostgresEncodable) {
            binds.append(value.postgresValue)
            sql += "$\(binds.count)"
        }

        /// An optional value: NULL when nil.
        package mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value?) {
            binds.append(value.postgresValue)
            sql += "$\(binds.count)"
        }

        /// SQL text known at compile time (a shared column list). Only a `StaticString` is
        /// accepted, so run-time data can never reach the SQL text this way.
        package mutating func appendInterpolation(unescaped fragment: StaticString) {
            sql += fragment.description
        }

        /// Another query as part of this one (a shared statement as a CTE of a larger one): its
        /// SQL text is appended with its placeholders renumbered after this query's binds, and its
        /// binds follow them. The fragment's own text came from literals and `StaticString`s, so
        /// every `$n` in it is one of its placeholders.
        package mutating func appendInterpolation(fragment: PostgresQuery) {
            let offset = binds.count
            binds.append(contentsOf: fragment.binds)
            guard offset > 0 else {
                sql += fragment.sql
                return
            }
            // On UTF-8 bytes: this runs for every sign-in (the hot paths embed the event's INSERT),
            // and a walk over Unicode scalars cost about 1 % of the server's CPU there.
            let text = Array(fragment.sql.utf8)
            var renumbered: [UInt8] = []
            renumbered.reserveCapacity(text.count + 16)
            var index = 0
            while index < text.count {
                let byte = text[index]
                renumbered.append(byte)
                index += 1
                guard byte == UInt8(ascii: "$") else { continue }
                var number = 0
                var end = index
                while end < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[end]) {
                    number = number * 10 + Int(text[end] - UInt8(ascii: "0"))
                    end += 1
                }
                guard end > index else { continue }
                renumbered.append(contentsOf: String(number + offset).utf8)
                index = end
            }
            sql += String(decoding: renumbered, as: UTF8.self)
        }

        /// Bytes bound as `bytea` in binary form.
        package mutating func appendInterpolation(bytes: [UInt8]) {
            appendInterpolation(PostgresBytes(bytes))
        }
    }
}
