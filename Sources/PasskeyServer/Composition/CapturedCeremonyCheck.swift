internal import Foundation
internal import PasskeyWebAuthn

/// `verify-response`'s use of the verifier: one captured ceremony (the webauthn-vectors schema)
/// verified offline, as one line.
enum CapturedCeremonyCheck {
    enum Verdict {
        /// `ok NAME format=… …` or `refused NAME reason=…`.
        case line(String)
        /// The file could not be used; the text says why.
        case error(String)
    }

    static func verify(_ data: Data, trusted: Bool) -> Verdict {
        let ceremony: CapturedCeremony
        do {
            ceremony = try JSONDecoder().decode(CapturedCeremony.self, from: data)
        } catch {
            return .error("not a captured ceremony")
        }
        do {
            switch try ceremony.verify(policy: trusted ? .trusted : .any) {
            case .success(let outcome): return .line("ok \(ceremony.name) \(outcome.summary)")
            case .failure(let reason): return .line("refused \(ceremony.name) reason=\(reason.reason)")
            }
        } catch {
            return .error(error.description)
        }
    }
}
