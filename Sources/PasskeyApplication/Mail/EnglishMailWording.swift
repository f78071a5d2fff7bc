internal import PasskeyDomain

/// The English mails (spec v3, "Messages"): plain text, lines of at most 78 characters for a
/// service name of ordinary length. Notices take only what `SecurityNotice` carries, which holds
/// no password, token or code.
enum EnglishMailWording {
    static func code(purpose: EmailCodePurpose, code: String, minutes: Int, service: String) -> MailText {
        let (subject, purposeLine, ignore): (String, String, String)
        switch purpose {
        case .verify:
            subject = "\(service): verify your email address"
            purposeLine = "To verify your email address for \(service), enter this code:"
            ignore = """
                If you did not ask for it, you can ignore this mail: nothing changes
                without the code. Someone may have typed your address by mistake.
                """
        case .change:
            subject = "\(service): confirm your new email address"
            purposeLine = "To make this the email address of your \(service) account, enter this code:"
            ignore = """
                If you did not ask for it, ignore this mail: the address of the
                account is not changed without the code.
                """
        case .signIn:
            subject = "\(service): your code to sign in by email"
            purposeLine = "To sign in to \(service) by email, enter this code:"
            ignore = """
                If you did not ask for it, ignore this mail and give the code to no
                one: whoever has it can sign in to your account. Nobody from
                \(service) will ever ask you for it.
                """
        }
        let body = """
            \(purposeLine)

            \(code)

            The code is valid for \(minutes) minutes and works once.

            \(ignore)
            """
        return MailText(subject: subject, body: body + "\n")
    }

    static func notice(_ notice: SecurityNotice, clientAddress: String?, service: String) -> MailText {
        let (subject, happened) = what(notice.kind, service: service)
        let advice: String
        switch notice.kind {
        case .accountDeleted:
            advice = """
                If this was not you, contact \(service) support at once: the account
                and everything in it are gone, and nobody can sign in to it any more.
                """
        case .emailChanged:
            advice = """
                If this was not you, contact \(service) support at once: mail about the
                account no longer comes to this address.
                """
        case _ where notice.kind.isSupportAction:
            advice = """
                If you did not ask the \(service) support desk for this, contact \(service)
                support at once, by the contact details on the \(service) website (not
                by replying to this mail).
                """
        default:
            advice = """
                If this was not you, sign in to \(service) now, end the other sessions
                of your account and undo the change, or contact \(service) support.
                """
        }
        let body = """
            \(happened)

            When: \(MailTimestamp.format(notice.occurredAt))
            From: \(clientAddress ?? "the \(service) support desk")

            If this was you, there is nothing to do.
            \(advice)
            """
        return MailText(subject: "\(service): \(subject)", body: body + "\n")
    }

    private static func what(_ kind: SecurityNotice.Kind, service: String) -> (subject: String, happened: String) {
        switch kind {
        case .passkeyAdded:
            ("a passkey was added", "A passkey was added to your \(service) account.")
        case .passkeyDeleted:
            ("a passkey was deleted", "A passkey was deleted from your \(service) account.")
        case .passwordSet:
            ("your password was set", "A password was set for your \(service) account.")
        case .passwordRemoved:
            (
                "your password was removed",
                "The password of your \(service) account was removed: you sign in with a passkey now."
            )
        case .recoveryCodesCreated:
            (
                "new recovery codes",
                "New recovery codes were created for your \(service) account; the earlier codes no longer work."
            )
        case .recoveryCodeIssued:
            (
                "support issued a recovery code",
                "The \(service) support desk issued a single-use recovery code for your account."
            )
        case .recoverySignIn(.recoveryCode):
            (
                "signed in with a recovery code",
                "Someone signed in to your \(service) account with one of your recovery codes."
            )
        case .recoverySignIn(.operatorCode):
            (
                "signed in with a support code",
                "Someone signed in to your \(service) account with a recovery code from the support desk."
            )
        case .recoverySignIn(.email):
            (
                "signed in by email",
                "Someone signed in to your \(service) account with a code mailed to this address."
            )
        case .emailChanged:
            (
                "your email address was changed",
                "The email address of your \(service) account was changed. Mail about the account now goes to the new address."
            )
        case .accountDeleted:
            ("your account was deleted", "Your \(service) account was deleted, with its passkeys and password.")
        case .accountLocked:
            (
                "support locked your account",
                "The \(service) support desk locked your account: nobody can sign in to it\nuntil the desk unlocks it, and every session of it was ended."
            )
        case .accountUnlocked:
            (
                "support unlocked your account",
                "The \(service) support desk unlocked your account: you can sign in again."
            )
        case .sessionsEndedBySupport:
            (
                "support signed out your sessions",
                "The \(service) support desk ended every session of your account: each device\nhas to sign in again."
            )
        case .passkeyDeletedBySupport:
            (
                "support deleted a passkey",
                "The \(service) support desk deleted a passkey from your account, and ended\nthe sessions it had signed in."
            )
        }
    }
}
