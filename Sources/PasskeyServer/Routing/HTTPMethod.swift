/// The methods the router knows. A request with another method matches no route (405 on a known
/// path, 404 elsewhere), and its metrics label is `OTHER`.
enum HTTPMethod: String, Sendable, CaseIterable {
    case get = "GET"
    case head = "HEAD"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
    case options = "OPTIONS"
}
