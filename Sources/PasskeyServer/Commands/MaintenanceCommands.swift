internal import Foundation
internal import PasskeyApplication

/// `migrate` and `sweep`: one-shot database commands, on the composition root's ports.
enum MaintenanceCommands {
    static func migrate(environment: [String: String]) async -> Int32 {
        guard let root = CompositionRoot.forCommand(environment) else { return 1 }
        defer { root.shutdown() }
        do {
            let applied = try await root.migrate()
            Console.error(
                applied.isEmpty
                    ? "migrate: schema is up to date (\(root.migrationCount) migrations)"
                    : "migrate: applied \(applied.joined(separator: ", "))")
            return 0
        } catch {
            Console.error("passkey-server: migrate: \(error)")
            return 1
        }
    }

    static func sweep(environment: [String: String]) async -> Int32 {
        guard let root = CompositionRoot.forCommand(environment) else { return 1 }
        defer { root.shutdown() }
        do {
            let deleted = try await root.dependencies.maintenance.sweepExpired(batchSize: 1000)
            Console.error("sweep: deleted \(deleted) expired rows")
            return 0
        } catch {
            Console.error("passkey-server: sweep: database error (\(FailureCause(error).logText))")
            return 1
        }
    }
}
