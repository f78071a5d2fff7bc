/// The `{name}` segments of the matched route with the values the request's path gave them.
struct PathParameters: Sendable {
    private var values: [(name: String, value: String)] = []

    init() {}

    init(names: [String], values: [String]) {
        self.values = Array(zip(names, values))
    }

    /// The raw segment, as sent (not percent-decoded).
    subscript(_ name: String) -> String? {
        values.first { $0.name == name }?.value
    }

    /// The parameter decoded as `T`; a missing or malformed one names nothing: 404 `not-found`.
    func require<T: PathParameterDecodable>(_ name: String, as type: T.Type) throws(Problem) -> T {
        guard let raw = self[name], let value = T(pathParameter: raw) else { throw Problem.notFound }
        return value
    }
}
