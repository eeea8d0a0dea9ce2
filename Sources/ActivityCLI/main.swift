import ActivityPOSIX
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// A reader that goes away must show up as EPIPE, never kill the command.
signal(SIGPIPE, SIG_IGN)
// Inherited as ignored, SIGCHLD would make the kernel reap children itself and waitpid fail.
signal(SIGCHLD, SIG_DFL)
SystemCall.ensureStandardDescriptors()
exit(ActivityCommand.main(Array(CommandLine.arguments.dropFirst())))
