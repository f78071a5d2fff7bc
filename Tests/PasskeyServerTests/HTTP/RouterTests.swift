import Foundation
import PasskeyHTTP
import Testing

@testable import PasskeyServer

/// Literal segments win over `{parameters}`: found by schemathesis (ST205), where
/// `OPTIONS /v1/passkeys/authentications` answered the methods of `/v1/passkeys/{credentialID}`
/// too, and `DELETE /v1/passkeys/registrations` reached the passkey deletion.
@Suite struct RouterTests {
    private static func router() -> Router {
        var router = Router()
        let ok: Responder = { _, _ in HTTPResponse(status: 200) }
        router.add(.post, "/v1/passkeys/registrations", ok)
        router.add(.post, "/v1/passkeys/authentications", ok)
        router.add(.get, "/v1/passkeys", ok)
        router.add(.patch, "/v1/passkeys/{credentialID}", ok)
        router.add(.delete, "/v1/passkeys/{credentialID}", ok)
        return router
    }

    @Test func aLiteralSegmentBeatsAParameter() async {
        let router = Self.router()
        guard case .methodNotAllowed(let allow, _) = router.match(method: "DELETE", path: "/v1/passkeys/registrations")
        else {
            Issue.record("DELETE /v1/passkeys/registrations reached a route")
            return
        }
        #expect(allow == ["POST", "OPTIONS"])
        #expect(await router.methods(for: "/v1/passkeys/authentications") == [.post])
        guard case .found(let route, let parameters) = router.match(method: "DELETE", path: "/v1/passkeys/AbC") else {
            Issue.record("a credential ID did not reach the deletion")
            return
        }
        #expect(route.pattern == "/v1/passkeys/{credentialID}")
        #expect(parameters["credentialID"] == "AbC")
        #expect(await router.methods(for: "/v1/passkeys/AbC") == [.patch, .delete])
    }

    @Test func theRealServerAnswersTheLiteralRoutesMethods() async throws {
        try await withServer { server, _ in
            let options = try await server.client.send("OPTIONS", "/v1/passkeys/authentications")
            #expect(options.headers["allow"] == "POST, OPTIONS")
            let delete = try await server.client.send("DELETE", "/v1/passkeys/registrations")
            #expect(delete.status == 405)
            #expect(delete.headers["allow"] == "POST, OPTIONS")
        }
    }
}
