package import Foundation

/// The current time, as a port so tests can fix it. (Not named `Clock`: that is the standard
/// library's protocol for measuring durations.)
package protocol WallClock: Sendable {
    var now: Date { get }
}
