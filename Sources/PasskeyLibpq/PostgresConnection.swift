internal import CLibpq
internal import Foundation
internal import Glibc

/// One libpq connection. Not thread-safe and every call blocks: the pool confines each
/// connection to its own serial queue, off Swift's cooperative threads.
package final class PostgresConnection {
    private let handle: OpaquePointer
    /// SQL text → name of the statement prepared on this connection.
    private var prepared: [String: String] = [:]
    /// Named prepared statements and session settings; off behind a transaction-pooling PgBouncer.
    private let preparedStatements: Bool

    /// Connects (blocking) with a libpq connection string or URI, then sets UTC and quiet notices.
    ///
    /// With `preparedStatements: false` the connection keeps no session state, as PgBouncer's
    /// transaction pooling needs (each transaction may run on another server connection): every
    /// statement is sent unnamed (`PQexecParams`, still with binds) and nothing is `SET` for the
    /// session (timestamps are read whatever the server's `TimeZone`).
    package init(conninfo: String, applicationName: String = "passkey-server", preparedStatements: Bool = true)
        throws(PostgresError)
    {
        self.preparedStatements = preparedStatements
        // Keywords first so that whatever the caller's string says overrides our defaults.
        let keywords = ["connect_timeout", "application_name", "dbname"]
        let values = ["5", applicationName, conninfo]
        let connection: OpaquePointer? = Self.withCStringArray(keywords) { k in
            Self.withCStringArray(values) { v in PQconnectdbParams(k, v, 1) }
        }
        guard let connection else {
            throw PostgresError(kind: .connection, diagnostic: "out of memory creating a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.message(PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(kind: .connection, diagnostic: message)
        }
        handle = connection
        PQsetNoticeReceiver(handle, { _, _ in }, nil)
        if preparedStatements { try execute("SET TimeZone TO 'UTC'; SET client_min_messages TO warning") }
    }

    deinit { PQfinish(handle) }

    /// Checks that a connection string or URI parses; returns libpq's complaint if not.
    package static func validate(conninfo: String) -> String? {
        var error: UnsafeMutablePointer<CChar>?
        if conninfo.contains("=") || conninfo.hasPrefix("postgres://") || conninfo.hasPrefix("postgresql://") {
            let options = PQconninfoParse(conninfo, &error)
            defer {
                if let options { PQconninfoFree(options) }
                if let error { PQfreemem(error) }
            }
            if options == nil { return error.map { message($0) } ?? "cannot parse the connection string" }
            return nil
        }
        return "not a libpq connection string or postgres:// URI"
    }

    /// False once the server went away or the socket broke; the pool then discards it.
    package var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Runs one or more statements without parameters (migrations, transaction control).
    package func execute(_ sql: String) throws(PostgresError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result)
    }

    /// Runs a parameterised statement, preparing it on first use on this connection (or sending
    /// it unnamed when prepared statements are off).
    @discardableResult
    package func query(_ query: PostgresQuery) throws(PostgresError) -> PostgresResult {
        let name = preparedStatements ? try statementName(for: query) : nil
        let binds = query.binds
        let count = binds.count
        var values = [UnsafeMutablePointer<CChar>?](repeating: nil, count: count)
        var lengths = [Int32](repeating: 0, count: count)
        var formats = [Int32](repeating: 0, count: count)
        defer { for value in values { value?.deallocate() } }
        for (index, bind) in binds.enumerated() {
            let bytes: [UInt8]
            switch bind {
            case .null: continue
            case .text(let text):
                bytes = Array(text.utf8) + [0]
            case .binary(let data):
                bytes = data
                formats[index] = 1
            }
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBufferPointer { source in
                source.withMemoryRebound(to: CChar.self) { chars in
                    if let base = chars.baseAddress { buffer.initialize(from: base, count: chars.count) }
                }
            }
            values[index] = buffer
            lengths[index] = Int32(bytes.count)
        }
        let result: OpaquePointer? = values.withUnsafeBufferPointer { valuesPointer in
            valuesPointer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { constValues in
                if let name {
                    PQexecPrepared(handle, name, Int32(count), constValues.baseAddress, lengths, formats, 0)
                } else {
                    PQexecParams(handle, query.sql, Int32(count), nil, constValues.baseAddress, lengths, formats, 0)
                }
            }
        }
        defer { PQclear(result) }
        try check(result)
        return Self.read(result)
    }

    /// Runs `body` inside BEGIN … COMMIT; rolls back if it throws.
    package func transaction<T>(_ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if isHealthy { try? execute("ROLLBACK") }
            throw error
        }
    }

    // MARK: - Internals

    private func statementName(for query: PostgresQuery) throws(PostgresError) -> String {
        if let name = prepared[query.sql] { return name }
        let name = "s\(prepared.count + 1)"
        let result = PQprepare(handle, name, query.sql, Int32(query.binds.count), nil)
        defer { PQclear(result) }
        try check(result)
        prepared[query.sql] = name
        return name
    }

    private func check(_ result: OpaquePointer?) throws(PostgresError) {
        guard let result else {
            throw PostgresError(kind: .connection, diagnostic: Self.message(PQerrorMessage(handle)))
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return
        default:
            let sqlState = PQresultErrorField(result, passkey_pg_diag_sqlstate).map { String(cString: $0) }
            let constraint = PQresultErrorField(result, passkey_pg_diag_constraint_name).map { String(cString: $0) }
            // The primary message only: DETAIL lines may quote row values.
            let message =
                PQresultErrorField(result, passkey_pg_diag_message_primary).map { String(cString: $0) }
                ?? Self.message(PQresultErrorMessage(result))
            let kind: PostgresError.Kind = (sqlState == nil || !isHealthy) ? .connection : .statement
            throw PostgresError(kind: kind, sqlState: sqlState, constraint: constraint, diagnostic: message)
        }
    }

    private static func read(_ result: OpaquePointer?) -> PostgresResult {
        guard let result else { return PostgresResult(rows: [], affectedRows: 0) }
        let rowCount = Int(PQntuples(result))
        let columnCount = Int(PQnfields(result))
        var rows = [PostgresRow]()
        rows.reserveCapacity(rowCount)
        for row in 0..<rowCount {
            var values = [[UInt8]?]()
            values.reserveCapacity(columnCount)
            for column in 0..<columnCount {
                if PQgetisnull(result, Int32(row), Int32(column)) == 1 {
                    values.append(nil)
                } else {
                    let length = Int(PQgetlength(result, Int32(row), Int32(column)))
                    let pointer = PQgetvalue(result, Int32(row), Int32(column))
                    values.append(
                        pointer.map { p in
                            p.withMemoryRebound(to: UInt8.self, capacity: length) {
                                Array(UnsafeBufferPointer(start: $0, count: length))
                            }
                        } ?? [])
                }
            }
            rows.append(PostgresRow(values: values))
        }
        let affected = PQcmdTuples(result).map { Int(String(cString: $0)) ?? 0 } ?? 0
        return PostgresResult(rows: rows, affectedRows: affected)
    }

    private static func message(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "unknown libpq error" }
        return String(cString: pointer).trimmingTrailingNewlines()
    }

    private static func message(_ pointer: UnsafeMutablePointer<CChar>) -> String {
        String(cString: pointer).trimmingTrailingNewlines()
    }

    private static func withCStringArray<R>(
        _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R
    ) -> R {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeMutableBufferPointer { buffer in
            // Buffer is non-empty (at least the terminating nil).
            body(UnsafePointer(buffer.baseAddress!))
        }
    }
}

extension String {
    /// libpq's messages span lines; diagnostics are logged as one line.
    fileprivate func trimmingTrailingNewlines() -> String {
        split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}
