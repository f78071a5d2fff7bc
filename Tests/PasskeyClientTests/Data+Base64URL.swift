import Foundation

extension Data {
    /// base64url without padding, as the contract writes binary values (the tests' own encoding,
    /// independent of the client's).
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
