#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system call that failed: which call, and the `errno` it left.
package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call, as a person would look it up (`pipe2`, `open`, `poll`), with what it was
    /// called on where that helps (`listen on /run/…/sink`).
    package let call: String
    package let code: Int32

    /// The failure of `call`, with the current `errno` unless `code` is given.
    package init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    /// Whether the reading end of the pipe or socket written is gone (`EPIPE`): for a command
    /// whose output is cut short (`| head`), the end of its work rather than a failure.
    package var readerIsGone: Bool { code == EPIPE }

    /// The system's words for the code: "No space left on device".
    package var reason: String { Self.reason(code) }

    /// The system's words for an `errno` value.
    package static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    package var description: String { "\(call): \(reason)" }
}
