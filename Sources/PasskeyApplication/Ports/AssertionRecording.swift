/// The outcome of recording a verified assertion.
package enum AssertionRecording: Hashable, Sendable {
    case recorded
    /// The challenge was consumed (or expired) since it was read: a concurrent finish won. Nothing written.
    case challengeUnavailable
    /// The stored counter changed since it was read (a concurrent assertion won). The challenge is
    /// consumed; nothing else is written.
    case staleCounter
    /// (v4) The support desk locked the account since it was read: the challenge is consumed and
    /// the counter moved, but no session or event was written.
    case accountLocked
}
