internal import Foundation
internal import PasskeyDomain

/// What the email use cases share.
enum EmailCodeFlows {
    /// The account as `GET /v1/account` answers it; a deleted account is `unauthorized`.
    static func summary(of id: AccountID, in accounts: any AccountRepository) async throws(EmailFlowError)
        -> AccountSummary
    {
        let summary = try await EmailFlowError.catching { () async throws(RepositoryError) in
            try await accounts.accountSummary(id: id)
        }
        guard let summary else { throw .unauthorized }
        return summary
    }

    /// How many codes one account may have mailed in an hour, to all its addresses together:
    /// twice the per-recipient limit (a verification and a change can both be under way). Before,
    /// one account mailed 600 addresses in 13 s through `PUT /v1/account/email` (security round
    /// 4, finding 4).
    static func sendsPerAccountPerHour(_ sendsPerHour: Int) -> Int { 2 * sendsPerHour }

    /// Issues `code` to `recipient` for the account, in `tx` (which holds the account's lock):
    /// under the recipient's lock (every issue to one address, on every instance, waits for it),
    /// counts the codes sent to it and the account's codes within the hour, and under both limits
    /// voids the account's earlier unused codes of the purpose, stores the code and queues its
    /// mail. The limits thus hold under concurrency.
    static func issue(
        _ code: EmailCodeMail, of accountID: AccountID, to recipient: EmailAddress, sendsPerHour: Int,
        in tx: any StoreTransaction
    ) async throws(RepositoryError) -> EmailCodeIssue {
        let now = code.draft.createdAt
        let forRecipient = try await limit(of: recipient.normalized, at: now, sendsPerHour, in: tx)
        let sent = try await tx.emailCodes.sends(of: accountID, since: now.addingTimeInterval(-3600))
        let forAccount = sent.count >= sendsPerAccountPerHour(sendsPerHour) ? wait(since: sent.oldest, now: now) : nil
        if let retryAfter = [forRecipient, forAccount].compactMap({ $0 }).max() {
            return .limited(retryAfter: retryAfter)
        }
        try await tx.emailCodes.voidUnused(code.draft.purpose, of: accountID, at: code.draft.createdAt)
        try await tx.store(code, of: accountID, sentTo: recipient)
        return .issued
    }

    /// Locks the recipient and answers how long until it may get another code (nil: now).
    static func limit(of normalizedEmail: String, at now: Date, _ sendsPerHour: Int, in tx: any StoreTransaction)
        async throws(RepositoryError) -> Int?
    {
        try await tx.emailCodes.lockRecipient(normalizedEmail)
        let sent = try await tx.emailCodes.sends(to: normalizedEmail, since: now.addingTimeInterval(-3600))
        guard sent.count >= sendsPerHour else { return nil }
        return wait(since: sent.oldest, now: now)
    }

    /// Seconds until the hour after `oldest` is over (at least 1).
    private static func wait(since oldest: Date?, now: Date) -> Int {
        let wait = (oldest ?? now).addingTimeInterval(3600).timeIntervalSince(now)
        return max(1, Int(wait.rounded(.up)))
    }

    /// How long after a code was used a use of the same code is a double submit that lost the race
    /// (answered like a used code, not counted): as for recovery codes, measured from when the
    /// losing use arrived, so a burst that waited in line on a busy machine still counts as one.
    static let recentUseWindow: TimeInterval = 10

    /// What presenting a code came to.
    enum CodeUse {
        /// It was the live code, now used.
        case consumed(LockedEmailCode)
        /// No live code, or a wrong one (its try counted).
        case wrong
        /// It is the code another use consumed just before this one arrived: a double submit.
        case usedJustNow
    }

    /// Checks a presented code against the account's live code of `purpose`, locked in `tx`: a
    /// wrong one counts a try (the `maximumTries`-th voids the code); a right one is marked used.
    /// With no live code, the same code used after `arrivedAt` minus the window is a double submit.
    /// With `use` false, a right code is answered `consumed` but left as it is (a locked account).
    static func consume(
        _ purpose: EmailCodePurpose, of accountID: AccountID, matches: (UUID, [UInt8]) -> Bool, maximumTries: Int,
        now: Date, arrivedAt: Date, in tx: any StoreTransaction, use: Bool = true
    ) async throws(RepositoryError) -> CodeUse {
        guard let code = try await tx.emailCodes.lockLive(purpose, of: accountID, now: now) else {
            // A failure's bookkeeping only: committed without waiting for the disk, like the
            // failures of unknown addresses, which write nothing (security round 4, finding 11).
            try await tx.relaxDurability()
            let since = arrivedAt.addingTimeInterval(-recentUseWindow)
            if let used = try await tx.emailCodes.latestUsed(purpose, of: accountID, since: since),
                matches(used.id, used.digest)
            {
                return .usedJustNow
            }
            return .wrong
        }
        guard matches(code.id, code.digest) else {
            try await tx.relaxDurability()
            try await tx.emailCodes.countWrongTry(code.id, void: code.failedTries + 1 >= maximumTries, at: now)
            return .wrong
        }
        if use { try await tx.emailCodes.markUsed(code.id, at: now) }
        return .consumed(code)
    }

    /// The in-process line that uses of one code for one address wait in (`AttemptGate`), so a
    /// burst of double submits is decided one after the other, each forgiven before the next
    /// counts its attempt. The key holds a digest of the code, never the code.
    static func gateKey(_ normalizedEmail: String, code: String, digester: any SecretDigester) -> String {
        let digest = digester.sha256(Array(code.filter { !$0.isWhitespace }.utf8))
        return "email-code:" + normalizedEmail + ":" + digest.map { String($0, radix: 16) }.joined(separator: ".")
    }
}
