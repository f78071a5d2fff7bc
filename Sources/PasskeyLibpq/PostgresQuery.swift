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

        /// Bytes bound as `bytea` in binary form.
        package mutating func appendInterpolation(bytes: [UInt8]) {
            appendInterpolation(PostgresBytes(bytes))
        }
    }
}
