internal import Foundation

/// A request's query string, read by name (the one decoder of every endpoint's query): names and
/// values are percent-decoded; a parameter this endpoint reads that is given more than once, or
/// with no `=value`, is 400 `invalid-request`; parameters it does not read are ignored, as every
/// endpoint ignores what it does not know.
struct QueryParameters {
    private var values: [String: String] = [:]
    /// The values as sent, before percent-decoding.
    private var raw: [String: String] = [:]

    /// The parameters of `query` named in `names`.
    init(_ query: String?, reading names: Set<String>) throws(Problem) {
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = String(parts[0]).removingPercentEncoding, names.contains(name) else { continue }
            guard values[name] == nil else { throw Problem.invalidRequest("\(name) is given more than once.") }
            guard parts.count == 2, let value = String(parts[1]).removingPercentEncoding else {
                throw Problem.invalidRequest("\(name) is invalid.")
            }
            values[name] = value
            raw[name] = String(parts[1])
        }
    }

    /// The value of `name`, nil when it was not given.
    subscript(name: String) -> String? { values[name] }

    /// `name` as a whole number in `range` written in plain decimal digits as sent (no sign, no
    /// spaces, no percent-encoding, at most as many digits as the range's bound has), `fallback`
    /// when absent; anything else is 400 with `message`.
    func integer(_ name: String, in range: ClosedRange<Int>, default fallback: Int, message: String)
        throws(Problem) -> Int
    {
        guard let value = raw[name] else { return fallback }
        let digits = String(range.upperBound).count
        guard (1...digits).contains(value.utf8.count), value.utf8.allSatisfy({ (48...57).contains($0) }),
            let number = Int(value), range.contains(number)
        else { throw Problem.invalidRequest(message) }
        return number
    }
}
