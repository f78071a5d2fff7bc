internal import PasskeyApplication
internal import PasskeyDomain
internal import PasskeyHTTP
internal import PasskeyWire

/// (v4) `/v1/operator/accounts…` (spec v4, "Support desk"): find an account by its exact address,
/// read it and its activity (role `viewer`), and act on it (role `support`): lock, unlock, end
/// every session, delete a passkey, issue an operator recovery code. Each read is one `info` log
/// line naming the operator and the account; each action is an account event with the operator
/// as its actor (and its webhook and notice), and a log line too.
struct OperatorAccountsController: Sendable {
    let lookup: SupportAccountLookupUseCase
    let locking: AccountLockUseCase
    let actions: SupportAccountActionsUseCase
    let recoveryCode: OperatorRecoveryCodeUseCase
    let authorization: OperatorAuthorizationUseCase

    func register(in routes: inout Routes) {
        let a = authorization
        routes.operator(.get, "/v1/operator/accounts", role: .viewer, authorization: a, find)
        routes.operator(.get, "/v1/operator/accounts/{accountID}", role: .viewer, authorization: a, account)
        routes.operator(.get, "/v1/operator/accounts/{accountID}/activity", role: .viewer, authorization: a, activity)
        routes.operator(.post, "/v1/operator/accounts/{accountID}/lock", role: .support, authorization: a, lock)
        routes.operator(.post, "/v1/operator/accounts/{accountID}/unlock", role: .support, authorization: a, unlock)
        routes.operator(
            .delete, "/v1/operator/accounts/{accountID}/sessions", role: .support, authorization: a, endSessions)
        routes.operator(
            .delete, "/v1/operator/accounts/{accountID}/passkeys/{credentialID}", role: .support, authorization: a,
            deletePasskey)
        routes.operator(
            .post, "/v1/operator/accounts/{accountID}/recovery-code", role: .support, authorization: a, issueCode)
    }

    @Sendable func find(_ request: HTTPRequest, context: OperatorContext) async throws -> HTTPResponse {
        let parameters = try QueryParameters(request.query, reading: ["email"])
        guard let email = parameters["email"], !email.isEmpty else {
            throw Problem.invalidRequest("email is required.")
        }
        let accounts = try await context.execute { () throws(SupportDeskError) in try await lookup.find(email: email) }
        // The address is not logged (the operator typed it; the account ID is enough to audit).
        log(context, read: "find", accountID: accounts.first.map { $0.account.id.description } ?? "none")
        return try .json(200, OperatorAccountListResponseBody(accounts: accounts.map(OperatorAccountResponseBody.init)))
    }

    @Sendable func account(_ request: HTTPRequest, context: OperatorContext) async throws -> HTTPResponse {
        let id = try context.parameters.require("accountID", as: AccountID.self)
        let found = try await context.execute { () throws(SupportDeskError) in try await lookup.account(id) }
        log(context, read: "account", accountID: id.description)
        return try .json(200, OperatorAccountResponseBody(found))
    }

    @Sendable func activity(_ request: HTTPRequest, context: OperatorContext) async throws -> HTTPResponse {
        let query = try ActivityQuery(request.query)
        let id = try context.parameters.require("accountID", as: AccountID.self)
        let page = try await context.execute { () throws(SupportDeskError) in
            try await lookup.activity(of: id, limit: query.limit, before: query.before)
        }
        log(context, read: "activity", accountID: id.description)
        return try .json(
            200,
            ActivityPageResponseBody(events: page.events.map(AccountEventResponseBody.init), next: page.next?.wireValue)
        )
    }

    @Sendable func lock(_ request: HTTPRequest, context: OperatorContext) async throws -> HTTPResponse {
        let id = try context.parameters.require("accountID", as: AccountID.self)
        let body = try request.decode(AccountLockRequestBody.self)
        let locked = try await context.execute { () throws(SupportDeskError) in
            try await locking.lock(id, reason: body.reason, by: context.operator.name)
        }
        log(context, action: "locked", accountID: id.description)
        return try .json(200, OperatorAccountResponseBody(locked))
    }

    @Sendable func unlock(_ request: HTTPRequest, context: OperatorContext) async throws -> HTTPResponse {
        let id = try context.parameters.require("accountID", as: AccountID.self)
        let account = try await context.execute { () throws(SupportDeskError) in
            try await locking.unlock(id, by: context.operator.name)
        }
        log(context, action: "unlocked", accountID: id.description)
        return try .json(200, OperatorAccountResponseBody(account))
    }

    @Sendable func endSessions(_ request: HTTPRequest, context: OperatorContext) async throws -> HTTPResponse {
        let id = try context.parameters.require("accountID", as: AccountID.self)
        try await context.execute { () throws(SupportDeskError) in
            try await actions.endSessions(of: id, by: context.operator.name)
        }
        log(context, action: "sessions_ended", accountID: id.description)
        return .noContent
    }

    @Sendable func deletePasskey(_ request: HTTPRequest, context: OperatorContext) async throws -> HTTPResponse {
        let id = try context.parameters.require("accountID", as: AccountID.self)
        let credentialID = try context.parameters.require("credentialID", as: CredentialID.self)
        try await context.execute { () throws(SupportDeskError) in
            try await actions.deletePasskey(credentialID, of: id, by: context.operator.name)
        }
        log(context, action: "passkey_deleted", accountID: id.description)
        return .noContent
    }

    @Sendable func issueCode(_ request: HTTPRequest, context: OperatorContext) async throws -> HTTPResponse {
        let id = try context.parameters.require("accountID", as: AccountID.self)
        let issued = try await context.execute { () throws(OperatorRecoveryCodeError) in
            try await recoveryCode.execute(accountID: id, by: context.operator.name)
        }
        // As the command's line: who issued a code for which account, never the code.
        context.logger.warning([
            .event: "operator_recovery_code_issued", .accountID: id.description,
            .issuedBy: context.operator.name.value, .expiresAt: WireJSON.timestamp(issued.expiresAt),
        ])
        return try .json(201, OperatorRecoveryCodeResponseBody(code: issued.code, expiresAt: issued.expiresAt))
    }

    /// One `info` line per read: which operator looked at which account.
    private func log(_ context: OperatorContext, read: String, accountID: String) {
        context.logger.info([
            .event: "operator_read", .outcome: read, .accountID: accountID, .operatorName: context.operator.name.value,
        ])
    }

    private func log(_ context: OperatorContext, action: String, accountID: String) {
        context.logger.info([
            .event: "operator_action", .outcome: action, .accountID: accountID,
            .operatorName: context.operator.name.value,
        ])
    }
}

extension OperatorAccountResponseBody {
    init(_ found: SupportAccount) {
        self.init(
            accountID: found.account.id.description, email: found.email.value, emailVerified: found.emailVerified,
            displayName: found.account.displayName.value, createdAt: found.account.createdAt,
            stage: found.stage.rawValue, hasPassword: found.hasPassword,
            passkeys: found.passkeys.map(PasskeyResponseBody.init), activeSessions: found.activeSessions,
            recoveryCodesRemaining: found.recoveryCodesRemaining, lockedAt: found.lock?.lockedAt,
            lockReason: found.lock?.reason.value)
    }
}
