internal import PasskeyLibpq

extension ServerConfiguration {
    /// Reads and validates the environment, `DATABASE_URL` with libpq's own parser.
    static func load(from env: [String: String], requireDatabase: Bool = true) throws(ConfigurationError)
        -> ServerConfiguration
    {
        try parse(from: env, requireDatabase: requireDatabase) { PostgresConnection.validate(conninfo: $0) }
    }
}
