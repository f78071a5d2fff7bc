internal import CLibpq
internal import Foundation
internal import Glibc
package import PasskeyEventLoop

/// One libpq connection in non-blocking mode. Connecting blocks (the pool connects on a
/// dispatch thread); every statement after that is sent without blocking and awaited on
/// `EventLoop`, which resumes the caller when the socket is readable. Not thread-safe:
/// the pool lends a connection to one task at a time.
package final class PostgresConnection {
    private let handle: OpaquePointer
    private let socket: Int32
    private let loop: EventLoop
    /// SQL text → name of the statement prepared on this connection.
    private var prepared: [String: String] = [:]
    /// Named prepared statements and session settings; off behind a transaction-pooling PgBouncer.
    private let preparedStatements: Bool
    /// The column layouts of the results this connection has read (one per statement, in practice).
    private var columnLayouts = PostgresColumns.Cache()
    /// A statement was cut off by the loop's shutdown: its result is still pending on the socket.
    private var abandoned = false
    /// The server said this session can no longer serve the application (`PostgresError
    /// .discardsConnection`: read-only after a failover, shut down by an administrator, a
    /// connection failure), even if the socket still looks open.
    private var unusable = false
    /// Called before each statement is sent (`PostgresConnectionPool.Configuration`; tests).
    private let statementObserver: (@Sendable () -> Void)?
    /// Told the cause when a ROLLBACK fails (`PostgresConnectionPool.Configuration`).
    private let rollbackFailureObserver: (@Sendable (PostgresError) -> Void)?
    /// The WARNING the server sent during the current command, if any (libpq's notice receiver
    /// writes it; the command that was running then fails, see `finish`).
    private let warnings = WarningLog()

    /// Connects (blocking) with a libpq connection string or URI, then sets UTC and quiet notices.
    ///
    /// With `preparedStatements: false` the connection keeps no session state, as PgBouncer's
    /// transaction pooling needs (each transaction may run on another server connection): every
    /// statement is sent unnamed (`PQsendQueryParams`, still with binds) and nothing is `SET` for the
    /// session (timestamps are read whatever the server's `TimeZone`).
    package init(
        conninfo: String, applicationName: String = "passkey-server", preparedStatements: Bool = true,
        loop: EventLoop, statementObserver: (@Sendable () -> Void)? = nil,
        rollbackFailureObserver: (@Sendable (PostgresError) -> Void)? = nil
    ) throws(PostgresError) {
        self.preparedStatements = preparedStatements
        self.statementObserver = statementObserver
        self.rollbackFailureObserver = rollbackFailureObserver
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
        socket = PQsocket(connection)
        self.loop = loop
        PQsetNoticeReceiver(
            handle,
            { context, notice in
                guard let context, let notice else { return }
                Unmanaged<WarningLog>.fromOpaque(context).takeUnretainedValue().record(notice)
            }, Unmanaged.passUnretained(warnings).toOpaque())
        if preparedStatements {
            let settings = PQexec(handle, "SET TimeZone TO 'UTC'; SET client_min_messages TO warning")
            try check(settings.map { PGresultOwner($0) })
        }
        guard PQsetnonblocking(handle, 1) == 0 else {
            throw PostgresError(kind: .connection, diagnostic: Self.message(PQerrorMessage(handle)))
        }
    }

    deinit {
        loop.forget(socket)
        PQfinish(handle)
    }

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

    /// False once the server went away, the socket broke, or a statement failed in a way that
    /// makes the session useless (`PostgresError.discardsConnection`); the pool then discards it.
    package var isHealthy: Bool { !abandoned && !unusable && PQstatus(handle) == CONNECTION_OK }

    /// Looks at the idle socket before the connection is lent out again: a server that ended
    /// the session while it sat in the pool (a restart, a failover, an administrator's
    /// `pg_terminate_backend`, a balancer that cut it) has left its error and the end of the
    /// stream there. False then, and nothing has been sent: the pool replaces it, so the caller's
    /// work runs on a fresh connection instead of failing on a dead one. One `poll` with no wait.
    package func isAliveBeforeUse() -> Bool {
        guard isHealthy else { return false }
        // Readable while idle: an error, a notice, a parameter change, or the end of the stream.
        // A read that got bytes does not look further, so read until nothing more is waiting:
        // a server that ended the session sent its FATAL error and then closed.
        for _ in 0..<8 {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 0)
            if ready == 0 { return true }
            guard ready > 0, PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else { break }
            _ = PQisBusy(handle)  // Parses what arrived (an error while idle is reported as a notice).
        }
        unusable = true
        return false
    }

    /// Runs one or more statements without parameters (migrations, transaction control).
    package func execute(_ sql: String) async throws(PostgresError) {
        guard PQsendQuery(handle, sql) == 1 else { throw connectionError() }
        _ = try await finish()
    }

    /// Runs a parameterised statement, preparing it on first use on this connection (or sending
    /// it unnamed when prepared statements are off).
    @discardableResult
    package func query(_ query: PostgresQuery) async throws(PostgresError) -> PostgresResult {
        let binds = query.binds
        // libpq takes text parameters as C strings: a NUL would silently cut the value there
        // (PostgreSQL's text cannot hold one either), so such a value is refused before sending.
        for case .text(let text) in binds where text.utf8.contains(0) {
            throw PostgresError(
                kind: .statement, sqlState: "22021",
                diagnostic: "a text parameter holds a NUL character, which PostgreSQL text cannot store")
        }
        let name = preparedStatements ? try await statementName(for: query) : nil
        let count = binds.count
        var values = [UnsafeMutablePointer<CChar>?](repeating: nil, count: count)
        var lengths = [Int32](repeating: 0, count: count)
        var formats = [Int32](repeating: 0, count: count)
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
        let sent: Int32 = values.withUnsafeBufferPointer { valuesPointer in
            valuesPointer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { constValues in
                if let name {
                    PQsendQueryPrepared(handle, name, Int32(count), constValues.baseAddress, lengths, formats, 0)
                } else {
                    PQsendQueryParams(
                        handle, query.sql, Int32(count), nil, constValues.baseAddress, lengths, formats, 0)
                }
            }
        }
        for value in values { value?.deallocate() }
        values = []
        guard sent == 1 else { throw connectionError() }
        return PostgresResult(try await finish())
    }

    /// Runs `body` inside BEGIN … COMMIT; rolls back if it throws.
    package func transaction<T>(_ body: () async throws(PostgresError) -> T) async throws(PostgresError) -> T {
        try await transaction(body, failure: { $0 })
    }

    /// Runs `body`, which throws errors of its own type, inside BEGIN … COMMIT; rolls back if it
    /// throws. `failure` turns the connection's own errors (BEGIN, COMMIT) into that type.
    ///
    /// A ROLLBACK that fails leaves the session in an unknown state: the connection is marked
    /// unusable (the pool discards it, and PostgreSQL rolls the transaction back when the session
    /// ends), the cause goes to the pool's `rollbackFailureObserver`, and the caller still gets the
    /// error that made it roll back, which is what decides its answer.
    package func transaction<T, E: Error>(
        _ body: () async throws(E) -> T, failure: (PostgresError) -> E
    ) async throws(E) -> T {
        do {
            try await execute("BEGIN")
        } catch {
            throw failure(error)
        }
        let value: T
        do {
            value = try await body()
        } catch {
            await rollBack()
            throw error
        }
        do {
            try await execute("COMMIT")
        } catch {
            await rollBack()
            throw failure(error)
        }
        return value
    }

    /// Rolls back the transaction that is open on the session, if one is (a COMMIT that failed
    /// has ended it already).
    private func rollBack() async {
        guard isHealthy, PQtransactionStatus(handle) != PQTRANS_IDLE else { return }
        do {
            try await execute("ROLLBACK")
        } catch {
            unusable = true
            rollbackFailureObserver?(error)
        }
    }

    // MARK: - Internals

    private func statementName(for query: PostgresQuery) async throws(PostgresError) -> String {
        if let name = prepared[query.sql] { return name }
        let name = "s\(prepared.count + 1)"
        guard PQsendPrepare(handle, name, query.sql, Int32(query.binds.count), nil) == 1 else {
            throw connectionError()
        }
        _ = try await finish()
        prepared[query.sql] = name
        return name
    }

    /// Sends what libpq buffered, then waits for the command's results: the last one is
    /// returned; the first error among them is thrown, after all were read, so the connection is
    /// ready for the next command either way. Each result is owned (and cleared) by its
    /// `PGresultOwner` from the moment libpq returns it.
    private func finish() async throws(PostgresError) -> PGresultOwner {
        statementObserver?()
        warnings.message = nil
        while true {
            let flushed = PQflush(handle)
            if flushed == 0 { break }
            guard flushed > 0 else { throw connectionError() }
            guard await loop.wait(for: socket, writable: true) else { throw loopStopped() }
        }
        var last: PGresultOwner?
        var failure: PostgresError?
        while true {
            while PQisBusy(handle) == 1 {
                guard await loop.wait(for: socket) else { throw loopStopped() }
                guard PQconsumeInput(handle) == 1 else { throw connectionError() }
            }
            guard let returned = PQgetResult(handle) else { break }
            let result = PGresultOwner(returned, columns: columnLayouts.layout(of: returned))
            last = result
            if failure == nil {
                do { try check(result) } catch { failure = error }
            }
        }
        if let failure { throw failure }
        guard let last else { throw connectionError() }
        if let warning = warnings.message {
            // A COMMIT (or a single statement's implicit one) that was waiting for the synchronous
            // standby and got cancelled reports success with a WARNING ("canceling wait for
            // synchronous replication"): committed here, not yet on the standby, so lost if the
            // primary fails now. No statement of this server warns otherwise, so any WARNING
            // fails the command as "outcome unknown" (503) and the session is not used again.
            unusable = true
            throw PostgresError(
                kind: .connection, diagnostic: "the server warned, so the outcome is unknown: \(warning)")
        }
        return last
    }

    /// The loop stopped while a statement was in flight: the connection cannot be used again.
    private func loopStopped() -> PostgresError {
        abandoned = true
        return PostgresError(kind: .connection, diagnostic: "the PostgreSQL event loop has stopped")
    }

    private func connectionError() -> PostgresError {
        PostgresError(kind: .connection, diagnostic: Self.message(PQerrorMessage(handle)))
    }

    private func check(_ owner: PGresultOwner?) throws(PostgresError) {
        guard let owner else {
            throw PostgresError(kind: .connection, diagnostic: Self.message(PQerrorMessage(handle)))
        }
        try owner.withHandle { result throws(PostgresError) in try check(result) }
    }

    private func check(_ result: OpaquePointer) throws(PostgresError) {
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
            let error = PostgresError(kind: kind, sqlState: sqlState, constraint: constraint, diagnostic: message)
            if error.discardsConnection { unusable = true }
            throw error
        }
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

/// The WARNINGs of one connection's current command, as libpq's notice receiver hands them over
/// (on the thread that reads the results: the connection's own). Notices below WARNING are not
/// kept. `@unchecked Sendable`: used only by the connection that owns it, one command at a time.
private final class WarningLog: @unchecked Sendable {
    /// The first WARNING's primary message since the command was sent.
    var message: String?

    func record(_ notice: OpaquePointer) {
        guard message == nil,
            let severity = PQresultErrorField(notice, passkey_pg_diag_severity_nonlocalized),
            String(cString: severity) == "WARNING"
        else { return }
        message = PQresultErrorField(notice, passkey_pg_diag_message_primary).map { String(cString: $0) } ?? "WARNING"
    }
}
