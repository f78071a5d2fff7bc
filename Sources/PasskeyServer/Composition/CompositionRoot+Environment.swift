internal import Foundation

extension CompositionRoot {
    /// The root for `serve` or a command: the configuration from the environment and the
    /// migrations folder it finds (`PASSKEY_MIGRATIONS_DIR`, else `./Migrations`, else beside the
    /// executable). `connections` caps the pool: the one-shot commands need one.
    static func fromEnvironment(_ environment: [String: String], connections: Int? = nil) throws(ConfigurationError)
        -> CompositionRoot
    {
        let configuration = try ServerConfiguration.load(from: environment)
        guard let migrations = ResourceLocator.migrations(environment) else {
            throw ConfigurationError(variable: "PASSKEY_MIGRATIONS_DIR", problem: "no Migrations folder found; set it")
        }
        return try CompositionRoot(configuration: configuration, migrationsFolder: migrations, connections: connections)
    }

    /// The same for a one-shot command: one connection, and on failure the one-line error on
    /// stderr and nil (the command exits 1).
    static func forCommand(_ environment: [String: String]) -> CompositionRoot? {
        do {
            return try fromEnvironment(environment, connections: 1)
        } catch {
            Console.error("passkey-server: \(error)")
            return nil
        }
    }
}
