/// The contract's success bodies as the server writes them (`../shared/spec.md`), spelled out
/// here rather than encoded from the wire types, so the client's decoding meets the contract's
/// own JSON.
enum ContractAnswers {
    static func session(token: String = "token-1", method: String = "password") -> String {
        """
        {"accessToken":"\(token)","accountID":"acc-1","displayName":"Taro","expiresAt":"2026-12-01T20:00:00Z",\
        "method":"\(method)","tokenType":"Bearer"}
        """
    }

    static let accountCreated = #"{"accountID":"acc-1","displayName":"Taro"}"#

    static let passkey = """
        {"aaguid":"fbfc3007-154e-4ecc-8c0b-6e020557d7bd","attestationFormat":"none","backupEligible":true,\
        "backupState":true,"createdAt":"2026-12-01T19:00:00Z","credentialID":"-_-_","lastUsedAt":null,\
        "name":"Work phone","transports":["internal","hybrid"]}
        """

    static let account = """
        {"accountID":"acc-1","displayName":"Taro","email":"taro@example.com","hasPassword":true,\
        "passkeys":[\(passkey)],"recoveryCodesRemaining":0,"emailVerified":false,"userHandle":"BAUG"}
        """

    /// (v3) The account after a confirmed code: the (new) address, verified.
    static let verifiedAccount = """
        {"accountID":"acc-1","displayName":"Taro","email":"new@example.com","hasPassword":false,\
        "passkeys":[],"recoveryCodesRemaining":0,"emailVerified":true,"userHandle":"BAUG"}
        """

    static let recoveryCodes = """
        {"codes":["AAAA-BBBB-CCCC","DDDD-EEEE-FFFF"],"createdAt":"2026-12-01T19:00:00Z"}
        """

    /// (v3) A last page of the activity.
    static let activityPage = """
        {"events":[{"eventID":"e-1","kind":"sign-in","occurredAt":"2026-12-01T19:00:00Z",\
        "clientAddress":"192.0.2.1","userAgent":"","method":"passkey","credentialID":"AQID"}],"next":null}
        """

    static let sessions = """
        [{"createdAt":"2026-12-01T19:00:00Z","credentialID":null,"current":true,\
        "expiresAt":"2026-12-01T20:00:00Z","method":"password","sessionID":"s-1"}]
        """

    /// `challenge` `AQID` is the bytes 1, 2, 3; `userID` `BAUG` is 4, 5, 6.
    static let registrationOptions = """
        {"challenge":"AQID","challengeID":"ch-1","displayName":"Taro","expiresAt":"2026-12-01T19:05:00Z",\
        "mode":"conditional","relyingPartyID":"example.com","relyingPartyName":"Example","userID":"BAUG",\
        "userName":"taro@example.com","publicKey":\(creationOptions(exclude: #"[{"id":"-_-_","type":"public-key"}]"#))}
        """

    static let accountRegistrationOptions = """
        {"challenge":"AQID","expiresAt":"2026-12-01T19:05:00Z","registrationID":"reg-1",\
        "relyingPartyID":"example.com","userID":"BAUG","publicKey":\(creationOptions(exclude: "[]"))}
        """

    static let authenticationOptions = """
        {"challenge":"AQID","challengeID":"ch-2","expiresAt":"2026-12-01T19:05:00Z","relyingPartyID":"example.com",\
        "publicKey":{"allowCredentials":[],"challenge":"AQID","hints":[],"rpId":"example.com","timeout":300000,\
        "userVerification":"preferred"}}
        """

    private static func creationOptions(exclude: String) -> String {
        """
        {"attestation":"none","authenticatorSelection":{"requireResidentKey":true,"residentKey":"required",\
        "userVerification":"preferred"},"challenge":"AQID","excludeCredentials":\(exclude),\
        "extensions":{"credProps":true},"hints":[],"pubKeyCredParams":[{"alg":-7,"type":"public-key"}],\
        "rp":{"id":"example.com","name":"Example"},"timeout":300000,\
        "user":{"displayName":"Taro","id":"BAUG","name":"taro@example.com"}}
        """
    }
}
