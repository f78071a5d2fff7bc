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
            var text = fragment.sql.unicodeScalars[...]
            while let dollar = text.firstIndex(of: "$") {
                sql.unicodeScalars.append(contentsOf: text[..<dollar])
                sql += "$"
                text = text[text.index(after: dollar)...]
                let digits = text.prefix { ("0"..."9").contains($0) }
                guard let number = Int(String(String.UnicodeScalarView(digits))) else { continue }
                sql += String(number + offset)
                text = text.dropFirst(digits.count)
            }
            sql.unicodeScalars.append(contentsOf: text)
        }

        /// Bytes bound as `bytea` in binary form.
        package mutating func appendInterpolation(bytes: [UInt8]) {
            appendInterpolation(PostgresBytes(bytes))
        }
    }
}
