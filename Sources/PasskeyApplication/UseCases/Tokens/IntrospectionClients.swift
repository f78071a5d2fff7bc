internal import Foundation

/// The services allowed to introspect (`INTROSPECTION_CLIENTS`): an ID and the SHA-256 of its
/// secret each. A presented pair is checked against every client, in time that does not depend
/// on which one matched, how much of it matched, or whether any did.
package struct IntrospectionClients: Sendable {
    private let clients: [(id: [UInt8], secret: [UInt8])]
    private let digester: any SecretDigester

    /// `clients` as configured (`id`, `secret`); empty: introspection off (404).
    package init(_ clients: [(id: String, secret: String)], digester: any SecretDigester) {
        self.clients = clients.map { (digester.sha256(Array($0.id.utf8)), digester.sha256(Array($0.secret.utf8))) }
        self.digester = digester
    }

    package var isEmpty: Bool { clients.isEmpty }

    /// Whether `id` and `secret` are one configured client's.
    package func accepts(id: String, secret: String) -> Bool {
        let presentedID = digester.sha256(Array(id.utf8))
        let presentedSecret = digester.sha256(Array(secret.utf8))
        var accepted = false
        for client in clients {
            let idMatches = digester.constantTimeEquals(presentedID, client.id)
            let secretMatches = digester.constantTimeEquals(presentedSecret, client.secret)
            accepted = accepted || (idMatches && secretMatches)
        }
        return accepted
    }
}
