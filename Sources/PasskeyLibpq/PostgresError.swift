/// An error from libpq or the server. `description` is deliberately generic so it can
/// never leak SQL, data or server text to a client; `diagnostic` is for operators' logs.
package struct PostgresError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// Could not connect, or the connection broke.
        case connection
        /// The server refused a statement (see `sqlState`).
        case statement
        /// No pooled connection became free in time.
        case poolTimeout
        /// The pool was shut down.
        case poolClosed
        /// The caller's task was cancelled while it waited for a connection.
        case cancelled
        /// A value could not be read as the type asked for.
        case decoding
    }

    package let kind: Kind
    /// The five-character SQLSTATE, e.g. `23505` for unique_violation.
    package let sqlState: String?
    /// The constraint that refused the statement, when the server names one.
    package let constraint: String?
    /// The result column a `.decoding` error is about, when it is one.
    package let column: String?
    /// libpq's or the server's message, for logs only.
    package let diagnostic: String

    package init(
        kind: Kind, sqlState: String? = nil, constraint: String? = nil, column: String? = nil, diagnostic: String
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.constraint = constraint
        self.column = column
        self.diagnostic = diagnostic
    }

    /// True for unique and foreign-key violations (SQLSTATE class 23).
    package var isConstraintViolation: Bool { sqlState?.hasPrefix("23") ?? false }

    /// True when the database was unreachable rather than the statement wrong.
    package var isUnavailable: Bool {
        switch kind {
        // A cancelled waiter gave up waiting for the database, like one that timed out.
        case .connection, .poolTimeout, .poolClosed, .cancelled: true
        case .statement: discardsConnection
        case .decoding: false
        }
    }

    /// True when the session that got this error cannot serve the application any more, however
    /// healthy its socket looks: class 08 (connection exception), 57P01 admin shutdown, 57P02
    /// crash shutdown, 57P03 cannot connect now, and 25006 read-only transaction (the node is a
    /// standby now, or not yet promoted: after a failover an old primary comes back read-only).
    /// The pool closes such a connection instead of handing it out again.
    package var discardsConnection: Bool {
        guard let sqlState else { return kind == .connection }
        return sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") || sqlState == "25006"
    }

    /// For operators' logs: what happened, the SQLSTATE and the database's primary message
    /// (never parameter values: statements are parameterised and DETAIL lines are not kept).
    package var logDescription: String {
        "\(description): \(diagnostic)"
    }

    /// The same: what `String(reflecting:)` and the server's log of a cause show.
    package var debugDescription: String { logDescription }

    package var description: String {
        switch kind {
        case .connection: "database connection error"
        case .statement: "database statement error (SQLSTATE \(sqlState ?? "unknown"))"
        case .poolTimeout: "no database connection available"
        case .poolClosed: "database pool closed"
        case .cancelled: "database wait cancelled"
        case .decoding: "database value decoding error"
        }
    }
}
