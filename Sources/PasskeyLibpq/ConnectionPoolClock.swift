/// The pool's time: a monotonic reading and a one-shot timer driven by the same clock. The pool
/// reads it only for a caller that has to wait, and arms at most one timer at a time (for the
/// head of its line). Tests pass a clock they advance by hand, so timeouts need no real sleeps.
package protocol ConnectionPoolClock: Sendable {
    /// Monotonic time since an arbitrary origin.
    var now: Duration { get }

    /// Calls `action` once, on any thread, when `now` has reached `deadline`.
    func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void)
}
