internal import Synchronization

/// The route pattern a request matched, written once by the router and read by the middlewares
/// outside it (metrics, access log), as Hummingbird's context carries its `endpointPath`.
final class EndpointPath: Sendable {
    private let value = Mutex<String?>(nil)

    /// The pattern, e.g. `/v1/passkeys/{credentialID}`, or `unmatched` (bounded metric labels).
    var label: String { value.withLock { $0 } ?? "unmatched" }

    func set(_ pattern: String) {
        value.withLock { $0 = pattern }
    }
}
