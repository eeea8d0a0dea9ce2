#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `sigaction`'s handler, whose union Linux and Darwin name differently
/// (`__sigaction_handler.sa_sigaction`, `__sigaction_u.__sa_sigaction`). Async-signal-safe:
/// a signal handler calls ``callHandler(_:_:_:)`` to chain to the one it replaced.
extension sigaction {
    package typealias InfoHandler =
        @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void

    /// The disposition as a number: `SIG_DFL` is 0, `SIG_IGN` 1, anything else a handler.
    package var handlerAddress: Int {
        #if canImport(Darwin)
            unsafeBitCast(__sigaction_u.__sa_handler, to: Int.self)
        #else
            unsafeBitCast(__sigaction_handler.sa_handler, to: Int.self)
        #endif
    }

    /// Makes `handler` the action, called with the signal's information (`SA_SIGINFO` is the
    /// caller's to set in `sa_flags`).
    package mutating func setInfoHandler(_ handler: InfoHandler) {
        #if canImport(Darwin)
            __sigaction_u.__sa_sigaction = handler
        #else
            __sigaction_handler.sa_sigaction = handler
        #endif
    }

    /// Calls the action's handler as the kernel would: with the information when `SA_SIGINFO` is
    /// set, with the signal alone otherwise. Nothing for `SIG_DFL` or `SIG_IGN`.
    package func callHandler(
        _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
    ) {
        guard handlerAddress != 0, handlerAddress != 1 else { return }
        #if canImport(Darwin)
            if sa_flags & Int32(SA_SIGINFO) != 0 {
                __sigaction_u.__sa_sigaction?(signal, info, context)
            } else {
                __sigaction_u.__sa_handler?(signal)
            }
        #else
            if sa_flags & Int32(SA_SIGINFO) != 0 {
                __sigaction_handler.sa_sigaction?(signal, info, context)
            } else {
                __sigaction_handler.sa_handler?(signal)
            }
        #endif
    }
}
