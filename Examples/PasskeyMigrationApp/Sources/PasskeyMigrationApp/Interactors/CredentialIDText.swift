internal import Foundation
internal import PasskeyClient

/// The client's `Passkey.credentialID` is still the contract's base64url text at this commit;
/// this reads it into the `Data` that `renamePasskey`/`deletePasskey` take. (Issue 23 item 5 makes
/// the client's credential IDs `Data`; this file goes when that lands.)
enum CredentialIDText {
    static func data(_ text: String) throws(PasskeyClientError) -> Data {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else {
            throw .unexpectedResponse("a passkey's credentialID is not base64url", cause: text)
        }
        return data
    }
}
