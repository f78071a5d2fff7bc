internal import PasskeyApplication

// (v4) The webhook management errors as HTTP problems (spec v4, "Webhooks").
extension WebhookManagementError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidRequest(let detail): .invalidRequest(detail)
        case .unknownWebhook: .notFound
        case .webhooksUnavailable: ProblemMapping.webhooksUnavailable
        case .unavailable: .unavailable
        case .internalFailure(let cause): .internalFailure(cause: cause)
        }
    }
}

extension ProblemMapping {
    static let webhooksUnavailable = Problem(
        status: 503, code: .webhooksUnavailable,
        detail: "This server cannot store webhook secrets (no DATA_ENCRYPTION_KEY).")
}
