/// Entry point of the `passkey-server` executable.
package enum PasskeyCommandLine {
    package static func main() async {}
}
