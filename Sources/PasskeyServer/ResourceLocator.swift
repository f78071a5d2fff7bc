internal import Foundation

/// Finds files the executable needs at run time (the migrations folder, `openapi.json`, the
/// web client's folder): an environment variable, else the working directory, else beside the
/// executable or one of its parents (a build folder inside the repository, or `/app` in the
/// container).
enum ResourceLocator {
    static func locate(_ relativePath: String, override variable: String, environment: [String: String]) -> URL? {
        let fileManager = FileManager.default
        if let configured = environment[variable], !configured.isEmpty {
            return URL(fileURLWithPath: configured)
        }
        let cwd = URL(fileURLWithPath: fileManager.currentDirectoryPath).appendingPathComponent(relativePath)
        if fileManager.fileExists(atPath: cwd.path) { return cwd }
        var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = folder.appendingPathComponent(relativePath)
            if fileManager.fileExists(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    static func migrations(_ environment: [String: String]) -> URL? {
        locate("Migrations", override: "PASSKEY_MIGRATIONS_DIR", environment: environment)
    }

    static func openAPI(_ environment: [String: String]) -> URL? {
        locate("openapi.json", override: "PASSKEY_OPENAPI_FILE", environment: environment)
    }

    static func webClient(_ environment: [String: String]) -> URL? {
        locate("WebClient", override: "PASSKEY_WEB_CLIENT_DIR", environment: environment)
    }
}
