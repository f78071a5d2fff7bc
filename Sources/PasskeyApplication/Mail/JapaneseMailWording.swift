internal import PasskeyDomain

/// The Japanese mails (spec v3, "Messages"), for accounts whose sign-up preferred `ja`: the
/// subjects are not ASCII (the transport encodes them per RFC 2047); lines are broken by hand
/// after punctuation, at most about 38 full-width characters. The time and the client address are
/// written as in English, so they read the same in every language.
enum JapaneseMailWording {
    static func code(purpose: EmailCodePurpose, code: String, minutes: Int, service: String) -> MailText {
        let (subject, purposeLine, ignore): (String, String, String)
        switch purpose {
        case .verify:
            subject = "【\(service)】メールアドレス確認用のコード"
            purposeLine = "\(service) のメールアドレスを確認するには、\n次のコードを入力してください。"
            ignore = """
                お心当たりがない場合は、このメールを破棄してください。
                コードが入力されない限り、何も変更されません。
                """
        case .change:
            subject = "【\(service)】新しいメールアドレス確認用のコード"
            purposeLine = "\(service) のアカウントのメールアドレスをこのアドレスに\n変更するには、次のコードを入力してください。"
            ignore = """
                お心当たりがない場合は、このメールを破棄してください。
                コードが入力されない限り、メールアドレスは変更されません。
                """
        case .signIn:
            subject = "【\(service)】メールでサインインするためのコード"
            purposeLine = "メールで \(service) にサインインするには、\n次のコードを入力してください。"
            ignore = """
                お心当たりがない場合は、このメールを破棄し、コードを誰にも
                教えないでください。コードを知っている人は、あなたのアカウントに
                サインインできます。\(service) の担当者がコードを尋ねることはありません。
                """
        }
        let body = """
            \(purposeLine)

            \(code)

            このコードの有効期限は\(minutes)分で、一度だけ使えます。

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
                お心当たりがない場合は、すぐに \(service) のサポートへご連絡ください。
                アカウントとその内容は削除され、もうサインインできません。
                """
        case .emailChanged:
            advice = """
                お心当たりがない場合は、すぐに \(service) のサポートへご連絡ください。
                今後、アカウントに関するメールはこのアドレスには届きません。
                """
        case _ where notice.kind.isSupportAction:
            advice = """
                サポート窓口へのご依頼にお心当たりがない場合は、\(service) の
                ウェブサイトに記載の連絡先から、すぐにサポートへご連絡ください
                （このメールへの返信ではなく）。
                """
        default:
            advice = """
                お心当たりがない場合は、すぐに \(service) にサインインして
                ほかのセッションを終了し、変更を元に戻すか、
                \(service) のサポートへご連絡ください。
                """
        }
        let body = """
            \(happened)

            日時: \(MailTimestamp.format(notice.occurredAt))
            接続元: \(clientAddress ?? "\(service) のサポート窓口")

            ご自身による操作であれば、対応は不要です。
            \(advice)
            """
        return MailText(subject: "【\(service)】\(subject)", body: body + "\n")
    }

    private static func what(_ kind: SecurityNotice.Kind, service: String) -> (subject: String, happened: String) {
        switch kind {
        case .passkeyAdded:
            ("パスキーが追加されました", "\(service) のアカウントにパスキーが追加されました。")
        case .passkeyDeleted:
            ("パスキーが削除されました", "\(service) のアカウントからパスキーが削除されました。")
        case .passwordSet:
            ("パスワードが設定されました", "\(service) のアカウントにパスワードが設定されました。")
        case .passwordRemoved:
            (
                "パスワードが削除されました",
                "\(service) のアカウントのパスワードが削除されました。\n今後はパスキーでサインインします。"
            )
        case .recoveryCodesCreated:
            (
                "新しいリカバリーコードが作成されました",
                "\(service) のアカウントに新しいリカバリーコードが作成されました。\n以前のコードは使えなくなりました。"
            )
        case .recoveryCodeIssued:
            (
                "サポートがリカバリーコードを発行しました",
                "\(service) のサポート窓口が、あなたのアカウント用に\n一度だけ使えるリカバリーコードを発行しました。"
            )
        case .recoverySignIn(.recoveryCode):
            (
                "リカバリーコードでサインインされました",
                "\(service) のアカウントに、リカバリーコードでサインインされました。"
            )
        case .recoverySignIn(.operatorCode):
            (
                "サポートのコードでサインインされました",
                "\(service) のアカウントに、サポート窓口が発行した\nリカバリーコードでサインインされました。"
            )
        case .recoverySignIn(.email):
            (
                "メールでサインインされました",
                "\(service) のアカウントに、このアドレスへ送ったコードで\nサインインされました。"
            )
        case .emailChanged:
            (
                "メールアドレスが変更されました",
                "\(service) のアカウントのメールアドレスが変更されました。\nアカウントのお知らせは、今後新しいアドレスに届きます。"
            )
        case .accountDeleted:
            ("アカウントが削除されました", "\(service) のアカウントが、パスキーとパスワードとともに削除されました。")
        case .accountLocked:
            (
                "サポートがアカウントをロックしました",
                "\(service) のサポート窓口が、あなたのアカウントをロックしました。\nロックが解除されるまでサインインできず、すべてのセッションは終了しました。"
            )
        case .accountUnlocked:
            (
                "サポートがアカウントのロックを解除しました",
                "\(service) のサポート窓口が、あなたのアカウントのロックを解除しました。\nふたたびサインインできます。"
            )
        case .sessionsEndedBySupport:
            (
                "サポートがセッションを終了しました",
                "\(service) のサポート窓口が、あなたのアカウントのすべてのセッションを\n終了しました。各デバイスで再度サインインが必要です。"
            )
        case .passkeyDeletedBySupport:
            (
                "サポートがパスキーを削除しました",
                "\(service) のサポート窓口が、あなたのアカウントからパスキーを削除し、\nそのパスキーでサインインしたセッションを終了しました。"
            )
        }
    }
}
