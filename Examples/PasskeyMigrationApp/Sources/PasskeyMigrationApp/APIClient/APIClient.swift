internal import Foundation
internal import PasskeyClient

/// One call of the server's API, as a value (slide 11's APIClient layer): what it sends and what
/// it answers. The Interactors build operations and hand them to `apiClient.execute(_:)`; only
/// the operations know `PasskeyClient`'s methods.
protocol Operation: Sendable {
    associatedtype Response: Sendable
    /// Runs the call on `client` (which holds the session's token for the authenticated ones).
    func execute(on client: PasskeyClient) async throws(PasskeyClientError) -> Response
}

/// The server, to the Interactors: `execute(Operation)`. An actor-free `Sendable` value, so an
/// Interactor actor calls it without hopping.
protocol APIClient: Sendable {
    func execute<O: Operation>(_ operation: O) async throws(PasskeyClientError) -> O.Response
}

/// The app's `APIClient` over `PasskeyClient`.
struct PasskeyServerAPIClient: APIClient {
    let client: PasskeyClient

    func execute<O: Operation>(_ operation: O) async throws(PasskeyClientError) -> O.Response {
        try await operation.execute(on: client)
    }
}
