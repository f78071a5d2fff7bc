/// A request method. The ones this server routes have names; any other token is kept as sent
/// (a request with it matches no route: 405 on a known path, 404 elsewhere).
package struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    package let rawValue: String

    package init(rawValue: String) { self.rawValue = rawValue }
    package init(stringLiteral value: String) { self.rawValue = value }

    package static let get: HTTPMethod = "GET"
    package static let head: HTTPMethod = "HEAD"
    package static let post: HTTPMethod = "POST"
    package static let put: HTTPMethod = "PUT"
    package static let patch: HTTPMethod = "PATCH"
    package static let delete: HTTPMethod = "DELETE"
    package static let options: HTTPMethod = "OPTIONS"

    /// The methods with a name, in this order (metrics label any other as `OTHER`).
    package static let known: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options]

    package var description: String { rawValue }
}
