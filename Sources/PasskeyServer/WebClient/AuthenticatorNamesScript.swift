internal import PasskeyApplication
internal import PasskeyWire

/// `/assets/authenticator-names.js`: the web client's AAGUID → provider name table, made from
/// `KnownAuthenticatorNames` (the one source) whenever the web client is loaded, so the page
/// shows the names the server gives new passkeys. There is no such file in `WebClient/assets/`;
/// one placed there is replaced by this.
enum AuthenticatorNamesScript {
    static let fileName = "authenticator-names.js"

    /// The module text opens with this; the JSON object of the table follows, then `;`.
    static let declaration = "export const AUTHENTICATORS = "

    /// An ES module exporting `AUTHENTICATORS`, the table as a JSON object with sorted keys.
    static func make(from names: [String: String], digester: any SecretDigester) -> StaticFile {
        var table = JSONWriter(capacity: 64 * names.count)
        table.object { writer in
            for (aaguid, name) in names.sorted(by: { $0.key < $1.key }) { writer.field(aaguid, name) }
        }
        let header = """
            // Made by the server from Sources/PasskeyServer/Authenticators/KnownAuthenticatorNames.swift
            // when it loads the web client: edit the names there. Known AAGUIDs → provider names.

            """
        let body = Array((header + declaration).utf8) + table.bytes + Array(";\n".utf8)
        return StaticFile(contentType: "text/javascript; charset=utf-8", body: body, digester: digester)
    }
}
