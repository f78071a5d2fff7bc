/// Waits for a condition that another thread makes true, without asserting on timing.
enum Polling {
    /// True as soon as `condition` holds; false after `attempts` checks a millisecond apart.
    static func until(attempts: Int = 10_000, _ condition: () -> Bool) async -> Bool {
        for _ in 0..<attempts {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return condition()
    }
}
